//! `GET/PATCH /remote`: the phone as the dashboard's settings show it — each bot (paired
//! or not, reachable or why not), away or at the desk, the projects kept off the phone —
//! and what they change: away and that list. No token ever leaves; adding and pairing a
//! bot stay on the command line, where the token is typed.

use axum::Json;
use axum::extract::State;
use mooring_core::Registry;
use mooring_core::remote::RemoteConfig;
use serde::Deserialize;
use serde_json::Value;

use super::Api;
use super::error::ApiError;

/// A change; each part optional, all checked before anything is written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    /// Away from the desk.
    away: Option<bool>,
    /// The projects kept off the phone (the whole list).
    kept_off: Option<Vec<String>>,
}

fn data_dir(api: &Api) -> Result<std::path::PathBuf, ApiError> {
    api.state.data_dir.clone().ok_or_else(|| {
        mooring_core::Error::not_found("remote", "this server has no data directory for the phone's settings")
            .into()
    })
}

fn view(dir: &std::path::Path) -> Result<Value, ApiError> {
    Ok(crate::remote::status::summary(dir)?)
}

/// `GET /remote`.
pub async fn get(State(api): State<Api>) -> Result<Json<Value>, ApiError> {
    Ok(Json(view(&data_dir(&api)?)?))
}

/// `PATCH /remote`.
pub async fn patch(
    State(api): State<Api>,
    super::body::Body(p): super::body::Body<Patch>,
) -> Result<Json<Value>, ApiError> {
    let dir = data_dir(&api)?;
    let mut config = RemoteConfig::edit(&dir)?;
    if let Some(slugs) = p.kept_off {
        let registry = Registry::new(&api.state.store);
        for slug in &slugs {
            registry.get(slug).map_err(|_| {
                mooring_core::Error::invalid("kept_off", format!("no project '{slug}'; give project slugs"))
            })?;
        }
        config.never_remote = slugs.into_iter().collect();
    }
    if let Some(away) = p.away {
        config.away = away;
    }
    config.save()?;
    drop(config);
    api.state.surfaces.waiting_changed();
    Ok(Json(view(&dir)?))
}
