# Settings that point a client at the scripted stand-in model (lib/model_standin.py).
# Source it; then `codex_standin_toml BASE_URL` prints Codex's.
codex_standin_toml() {
  cat <<TOML
model = "standin-model"
model_provider = "standin"

[model_providers.standin]
name = "standin"
base_url = "$1/v1"
wire_api = "responses"
env_key = "STANDIN_API_KEY"
TOML
}

# `pi_standin_models BASE_URL` prints Pi's `models.json`: one provider, `standin`, over
# OpenAI's Chat Completions with the plain `system` role.
pi_standin_models() {
  cat <<JSON
{ "providers": { "standin": { "baseUrl": "$1/v1", "api": "openai-completions", "apiKey": "sk-standin",
  "compat": { "supportsDeveloperRole": false, "supportsReasoningEffort": false },
  "models": [ { "id": "standin-model" } ] } } }
JSON
}
