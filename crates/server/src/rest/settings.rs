//! `GET/PATCH /settings`: what the dashboard's settings panel shows and changes — the
//! numeric settings, the interaction settings, start at login, and where the server is.

use axum::Json;
use axum::extract::State;
use mooring_core::choice::settings::ChoiceSettings;
use mooring_core::settings::{Setting, Spec};
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::Api;
use super::error::ApiError;

/// A change; every part optional. Everything is checked before anything is written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// Numeric settings by key (`auto_pause_days`, `port`, …).
    #[serde(default)]
    settings: Map<String, Value>,
    /// The whole interaction settings object.
    #[serde(default, deserialize_with = "object")]
    interaction: Option<ChoiceSettings>,
    /// Start at login (desktop only).
    start_at_login: Option<bool>,
}

/// Only a JSON object: serde's derive would also take `[]` as a struct with every
/// field defaulted, silently resetting the person's settings.
fn object<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ChoiceSettings>, D::Error> {
    use serde::de::Error as _;
    let map = Option::<Map<String, Value>>::deserialize(d)?;
    map.map(|m| serde_json::from_value(Value::Object(m)).map_err(D::Error::custom)).transpose()
}

/// `GET /settings`.
pub async fn get(State(api): State<Api>) -> Result<Json<Value>, ApiError> {
    Ok(Json(current(&api)?))
}

/// `PATCH /settings` → the settings after the change.
pub async fn patch(
    State(api): State<Api>,
    super::body::Body(b): super::body::Body<Patch>,
) -> Result<Json<Value>, ApiError> {
    let p = b;
    let store = &api.state.store;
    let mut numbers = Vec::new();
    for (key, value) in &p.settings {
        let text = match value {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            _ => {
                return Err(mooring_core::Error::invalid(key, format!("{key} must be a whole number")).into());
            }
        };
        Setting::parse(key)?.check(&text)?;
        numbers.push((key.clone(), text));
    }
    if let Some(i) = &p.interaction {
        i.check()?;
    }
    let dir = api.state.data_dir.clone();
    if p.interaction.is_some() && dir.is_none() {
        return Err(mooring_core::Error::storage("no data directory to keep interaction settings in").into());
    }
    if p.start_at_login.is_some() && api.state.surfaces.start_at_login().is_none() {
        return Err(ApiError::bad_request(
            "start_at_login belongs to the desktop app (mooring-desktop); `mooring serve` cannot change it",
        ));
    }
    mooring_core::settings::set_many(store, &numbers)?;
    if let (Some(i), Some(dir)) = (&p.interaction, &dir) {
        i.save(dir)?;
    }
    if let Some(on) = p.start_at_login {
        api.state.surfaces.set_start_at_login(on).map_err(ApiError::bad_request)?;
    }
    Ok(Json(current(&api)?))
}

fn current(api: &Api) -> Result<Value, ApiError> {
    let state = &api.state;
    let mut settings = Map::new();
    for s in Setting::ALL {
        let Spec { key, default, min, max, about } = s.spec();
        let value = s.get(&state.store)?;
        settings.insert(
            key.to_owned(),
            json!({ "value": value, "default": default, "min": min, "max": max, "about": about }),
        );
    }
    let interaction = match &state.data_dir {
        Some(dir) => ChoiceSettings::load(dir)?,
        None => ChoiceSettings::default(),
    };
    let url = state.base_url.as_deref().map(|b| format!("{b}/mcp"));
    let listening =
        state.base_url.as_deref().and_then(|b| b.rsplit(':').next()).and_then(|p| p.parse::<u16>().ok());
    Ok(json!({
        "server": { "url": url, "port": listening, "data_dir": state.data_dir },
        "settings": settings,
        "interaction": interaction,
        "start_at_login": state.surfaces.start_at_login(),
    }))
}
