//! What crosses Mooring's edges: text from repositories, clients and teammates read with
//! bounds (`untrusted`), checked (`validate`), cleared of secrets (`redact`, `secret`),
//! and handed to a model as data, never as instructions (`quoted`).

pub mod quoted;
pub mod redact;
pub mod secret;
pub mod untrusted;
pub mod validate;
