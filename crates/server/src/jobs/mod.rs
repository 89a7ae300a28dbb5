//! The hub's background work, each job on its own period until the server stops: other
//! processes' writes noticed (`other_writers`), vectors made (`indexer`), idle projects
//! paused and old sessions folded (`idle`), the clients' memory brought in (`import`),
//! the team's changes applied (`team_changes`), the code-path watcher (`watcher`); the
//! loop they share (`ticks`).

pub mod idle;
pub mod import;
pub mod indexer;
pub mod other_writers;
pub mod team_changes;
pub mod ticks;
pub mod watcher;
