-- Notes left for one live agent session of a project, by another session (an agent's
-- words) or by the person from the desk, delivered once at that session's next prompt.
-- `from_key` is the writing session's key, NULL when the person wrote it; `from_label`
-- how the note names its writer when it is delivered (kept, since the writer's live
-- row may be gone by then).
CREATE TABLE session_notes (
    id           INTEGER PRIMARY KEY,
    project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    to_key       TEXT NOT NULL,
    from_key     TEXT,
    from_label   TEXT NOT NULL,
    text         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    delivered_at TEXT
);
CREATE INDEX session_notes_waiting ON session_notes (to_key) WHERE delivered_at IS NULL;
