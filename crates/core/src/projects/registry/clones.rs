//! Binding a checkout found by its git remote as a code path of the project whose
//! repository it is. Git only supplies the facts (`crate::projects::git`); the registry decides.

use std::path::PathBuf;

use crate::projects::git::GitFacts;

/// Bind a clone found by its remote as a new code path of `slug` (event `remote_bound`),
/// so the watcher follows it and the working directory decides from now on. False when
/// the directory cannot be claimed (another project owns it).
pub fn bind_clone(store: &crate::Store, slug: &str, facts: &GitFacts) -> crate::Result<bool> {
    let path = facts.checkout.display().to_string();
    let edit = super::ProjectEdit { add_code_paths: vec![path.clone()], ..Default::default() };
    match super::Registry::new(store).edit(slug, edit) {
        Ok(_) => {
            store.write(|tx| {
                let id = crate::store::projects::by_slug(tx, slug)?.map_or(0, |p| p.id);
                let detail = serde_json::json!({ "path": path, "remote": facts.remote_url });
                crate::store::events::record(tx, id, slug, "remote_bound", &detail, &crate::humanize::now())
            })?;
            Ok(true)
        }
        Err(e) if e.code == crate::ErrorCode::Conflict => {
            tracing::info!(path = %path, reason = %e.message, "clone not bound");
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

/// When `resolution` was decided by a clone's remote, bind that clone (see
/// [`bind_clone`]); the directory bound, if any.
pub fn bind_if_decided(
    store: &crate::Store,
    resolution: &crate::projects::resolve::Resolution,
    hints: &crate::projects::resolve::Hints,
) -> crate::Result<Option<PathBuf>> {
    match (resolution.decided_by, &resolution.project, &hints.git) {
        (Some(crate::projects::resolve::Level::GitRemote), Some(slug), Some(facts)) => {
            Ok(bind_clone(store, slug, facts)?.then(|| facts.checkout.clone()))
        }
        _ => Ok(None),
    }
}
