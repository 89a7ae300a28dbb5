-- What the person sent from their phone to a project's session (`SLUG words`): kept
-- until a session of that project takes it at its next prompt, then marked delivered
-- (to which client session, by its key) and no longer handed out.
CREATE TABLE phone_messages (
    id           INTEGER PRIMARY KEY,
    project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    text         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    delivered_at TEXT,
    delivered_to TEXT
);
CREATE INDEX phone_messages_waiting ON phone_messages (project_id) WHERE delivered_at IS NULL;
