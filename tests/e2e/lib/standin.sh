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
