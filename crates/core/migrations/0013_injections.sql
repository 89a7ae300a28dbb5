-- What each client session was handed from memory by the hooks, kept for the session
-- timeline and the project's totals: the preamble at its start (or after a compaction,
-- its own record with it), and each prompt's recall, with the entries' ids and the
-- exact o200k token count of the text handed over. `key` names the client session as
-- its captured record does (a hash, never the client's own id); `project` is the slug,
-- so a team project's sessions are counted on the machine that ran them. Only ids and
-- counts are kept, never the text.
CREATE TABLE injections (
    id      INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    key     TEXT NOT NULL,
    what    TEXT NOT NULL CHECK (what IN ('preamble', 'compaction', 'recall')),
    ids     TEXT NOT NULL,
    tokens  INTEGER NOT NULL CHECK (tokens >= 0),
    at      TEXT NOT NULL
);
CREATE INDEX injections_by_session ON injections(project, key, at);
