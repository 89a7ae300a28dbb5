//! Choices: an agent asks the person a structured question. The request
//! contract and its checks, the broker that owns interactions and answers, and the
//! person's interaction settings.

pub mod broker;
pub mod request;
pub mod settings;

pub use crate::model::ChoiceStatus;
pub use broker::{Broker, Interaction, Submission, TimeoutAction};
pub use request::{
    ActionStatus, ChoiceOption, ChoiceRequest, ChoiceResponse, Selection, SelectionMode, Transport, check,
};
