//! The Kilo CLI is a fork of opencode (checked against the pinned 7.7.7): the same plugin
//! hooks (`chat.message`, `session.idle`), the same database schema, under its own names.
//! It loads plugins from `{plugin,plugins}/*.{ts,js}` in `~/.config/kilo` and a
//! checkout's `.kilo/`, reads `kilo.json` (also `kilo.jsonc` and opencode's names) for its
//! servers, and keeps its sessions in `~/.local/share/kilo/kilo.db`. Mooring's plugin is
//! opencode's, naming Kilo's command and database; its permission prompts and finished
//! turns reach the phone as opencode's do (`kilo serve`, in `tests/e2e/remote.sh`).

use super::{Dialect, opencode};
use crate::entry::ShimSpec;

pub(super) const DIALECT: Dialect = Dialect {
    setup_note: Some(
        "Kilo installs its plugin package (@kilocode/plugin) into its config folder when it first loads a plugin; offline, that first start waits for npm to give up.",
    ),
    plugin: Some(plugin),
    ..opencode::DIALECT
};

fn plugin(spec: &ShimSpec) -> String {
    opencode::plugin_for(spec, "kilo")
}
