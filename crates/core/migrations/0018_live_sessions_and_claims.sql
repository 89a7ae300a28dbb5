-- The agent sessions working in a project now, as their clients' hooks report them
-- (every hook renews `last_at`), and what each has claimed in its checkout: a file it
-- is about to edit (claimed by its pre-edit hook, before the write), or a folder, a
-- glob or a named task it claimed itself. A session stops being live at its end hook,
-- when its process is gone, or after a quiet period; its claims go with it. `key` is
-- the client session's key (a hash, never the client's own id); `checkout` the
-- worktree's top folder, so sessions in two worktrees of one clone never meet.
CREATE TABLE live_sessions (
    key        TEXT PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    client     TEXT NOT NULL,
    checkout   TEXT NOT NULL,
    branch     TEXT,
    pid        INTEGER,
    started_at TEXT NOT NULL,
    last_at    TEXT NOT NULL,
    request    TEXT,
    ended_at   TEXT,
    -- Writes it was asked about, refused or warned of because another session held them.
    conflicts  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX live_sessions_by_project ON live_sessions(project_id, last_at);

CREATE TABLE claims (
    checkout    TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('file', 'dir', 'glob', 'task')),
    what        TEXT NOT NULL,
    session_key TEXT NOT NULL REFERENCES live_sessions(key) ON DELETE CASCADE,
    reason      TEXT,
    at          TEXT NOT NULL,
    PRIMARY KEY (checkout, kind, what, session_key)
) WITHOUT ROWID;
CREATE INDEX claims_by_session ON claims(session_key);

-- What a write into a file another live session holds meets, per project.
ALTER TABLE projects ADD COLUMN claims TEXT NOT NULL DEFAULT 'ask'
    CHECK (claims IN ('ask', 'deny', 'warn', 'off'));
