//! Project picks waiting on the person: a pending session's call waits here while a
//! desktop window (or a tray click) chooses its project.

use std::collections::HashMap;
use std::sync::Mutex;

use mooring_core::Error;
use mooring_core::projects::decided_by::DecidedBy;
use serde::Serialize;
use tokio::sync::oneshot;

/// A pick the person can answer.
#[derive(Debug, Clone, Serialize)]
pub struct PickInfo {
    /// Id.
    pub id: String,
    /// Secret for the picker page.
    #[serde(skip)]
    pub token: String,
    /// The waiting session.
    pub session_id: Option<String>,
    /// Its client, to tell the person who is asking.
    pub client: Option<String>,
    /// The likeliest project.
    pub recommended: Option<String>,
    /// The session's directory (workspace or working directory), for "New project here".
    pub workspace: Option<String>,
    /// A `.mooring.toml` naming a project that does not exist yet: "New project here"
    /// offers to create exactly that one.
    pub marker: Option<mooring_core::projects::markers::Marker>,
}

/// The person's answer to a pick.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picked {
    /// The project.
    pub slug: String,
    /// Where it was picked: the picker (the desktop's window, the page, the tray), the
    /// phone or Mooring's app in the conversation.
    pub via: DecidedBy,
}

/// Waiting picks.
#[derive(Default)]
pub struct Picks {
    waiting: Mutex<HashMap<String, (PickInfo, oneshot::Sender<Picked>)>>,
}

impl Picks {
    /// Open a pick; the receiver gets the chosen slug.
    pub fn open(
        &self,
        session_id: Option<String>,
        client: Option<String>,
        recommended: Option<String>,
        workspace: Option<String>,
        marker: Option<mooring_core::projects::markers::Marker>,
    ) -> (PickInfo, oneshot::Receiver<Picked>) {
        let info = PickInfo {
            id: format!("p-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            token: mooring_core::guard::secret::random_id(mooring_core::guard::secret::PICK_TOKEN),
            session_id,
            client,
            recommended,
            workspace,
            marker,
        };
        let (tx, rx) = oneshot::channel();
        self.lock().insert(info.id.clone(), (info.clone(), tx));
        (info, rx)
    }

    /// A waiting pick, for the holder of its token.
    pub fn get(&self, id: &str, token: &str) -> Result<PickInfo, Error> {
        self.lock()
            .get(id)
            .filter(|(i, _)| mooring_core::guard::secret::same(&i.token, token))
            .map(|(i, _)| i.clone())
            .ok_or_else(|| {
                Error::not_found(
                    "pick",
                    format!("no waiting pick '{id}' for this link; it may be answered already"),
                )
            })
    }

    /// Answer one pick in the picker.
    pub fn answer(&self, id: &str, token: &str, slug: &str) -> Result<(), Error> {
        self.answer_via(id, token, slug, DecidedBy::Picker)
    }

    /// Answer one pick from `via`.
    pub fn answer_via(&self, id: &str, token: &str, slug: &str, via: DecidedBy) -> Result<(), Error> {
        self.get(id, token)?;
        if let Some((_, tx)) = self.lock().remove(id) {
            let _ = tx.send(Picked { slug: slug.to_owned(), via });
        }
        Ok(())
    }

    /// Answer every waiting pick with `slug` (a focus click in the tray). Returns how many.
    pub fn answer_all(&self, slug: &str) -> usize {
        let all: Vec<_> = self.lock().drain().collect();
        let n = all.len();
        for (_, (_, tx)) in all {
            let _ = tx.send(Picked { slug: slug.to_owned(), via: DecidedBy::Picker });
        }
        n
    }

    /// Forget a pick (its call stopped waiting).
    pub fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Every waiting pick.
    pub fn list(&self) -> Vec<PickInfo> {
        self.lock().values().map(|(i, _)| i.clone()).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (PickInfo, oneshot::Sender<Picked>)>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::Picks;

    #[test]
    fn a_pick_is_answered_once_by_the_holder_of_its_token() {
        let picks = Picks::default();
        let (info, mut rx) = picks.open(Some("s".into()), None, Some("alpha".into()), None, None);
        assert!(picks.answer(&info.id, "not-the-token", "beta").is_err(), "a guessed link answers nothing");
        assert!(rx.try_recv().is_err());
        picks.answer(&info.id, &info.token, "beta").unwrap();
        assert_eq!(rx.try_recv().unwrap().slug, "beta");
        let again = picks.answer(&info.id, &info.token, "alpha").unwrap_err();
        assert!(again.message.contains("answered already"), "{}", again.message);
    }

    #[test]
    fn a_focus_click_answers_every_waiting_pick_and_a_stopped_wait_leaves_none() {
        let picks = Picks::default();
        let (_, mut a) = picks.open(None, None, None, None, None);
        let (_, mut b) = picks.open(None, None, None, None, None);
        let (gone, _) = picks.open(None, None, None, None, None);
        picks.remove(&gone.id);
        assert_eq!(picks.answer_all("alpha"), 2);
        assert_eq!(
            (a.try_recv().unwrap().slug, b.try_recv().unwrap().slug),
            ("alpha".into(), "alpha".into())
        );
        assert!(picks.list().is_empty());
    }
}
