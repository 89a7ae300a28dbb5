-- Version 2: agent sessions, project memory with full-text search, context locks,
-- choices and persisted settings.
-- Projects paused automatically after inactivity resume by themselves when used again.
ALTER TABLE projects ADD COLUMN auto_paused INTEGER NOT NULL DEFAULT 0;

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE sessions (
    id               TEXT PRIMARY KEY,
    client_name      TEXT,
    client_version   TEXT,
    transport        TEXT NOT NULL,
    protocol_version TEXT,
    project_id       INTEGER REFERENCES projects(id) ON DELETE SET NULL,
    decided_by       TEXT,
    workspace        TEXT,
    roots            TEXT NOT NULL DEFAULT '[]',
    created_at       TEXT NOT NULL,
    last_seen_at     TEXT NOT NULL
);
CREATE INDEX sessions_by_project ON sessions(project_id);

-- MCP protocol sessions (Mcp-Session-Id) and their initialize parameters, so a legacy
-- client's session survives a server restart. Distinct from `sessions`: a stdio shim's
-- Mooring session outlives the protocol sessions it opens.
CREATE TABLE protocol_sessions (
    id          TEXT PRIMARY KEY,
    init_params TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

CREATE TABLE memory (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN
               ('decision', 'blocker', 'summary', 'note', 'handover', 'context_carry')),
    title      TEXT NOT NULL,
    content    TEXT NOT NULL,
    tags       TEXT NOT NULL DEFAULT '',
    status     TEXT CHECK (status IS NULL OR status IN ('open', 'resolved')),
    -- Structured form of records that have one (a handover's fields, a blocker's
    -- resolution), as JSON.
    data         TEXT,
    session_id   TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    -- Set by `forget`: hidden from lists, search and the preamble; the event log keeps it.
    forgotten_at TEXT,
    -- "p" + project id: lets a project-scoped search intersect posting lists inside FTS5
    -- instead of filtering every match of a common word afterwards.
    scope        TEXT GENERATED ALWAYS AS ('p' || project_id) VIRTUAL
);
CREATE INDEX memory_by_project_kind ON memory(project_id, kind, created_at);
CREATE INDEX memory_by_project_id ON memory(project_id, id);

-- Merge index segments less eagerly: inserts get cheaper, searches barely notice.
-- (Forgotten rows leave the index; the row itself stays for the audit trail.)
CREATE VIRTUAL TABLE memory_fts USING fts5(
    title, content, tags, scope,
    content = 'memory', content_rowid = 'id', tokenize = 'porter unicode61'
);
INSERT INTO memory_fts(memory_fts, rank) VALUES ('automerge', 8);
CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory WHEN new.forgotten_at IS NULL BEGIN
    INSERT INTO memory_fts(rowid, title, content, tags, scope)
    VALUES (new.id, new.title, new.content, new.tags, new.scope);
END;
CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory WHEN old.forgotten_at IS NULL BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags, scope)
    VALUES ('delete', old.id, old.title, old.content, old.tags, old.scope);
END;
-- One trigger, so the delete of the old text runs before the insert of the new.
CREATE TRIGGER memory_fts_update AFTER UPDATE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags, scope)
    SELECT 'delete', old.id, old.title, old.content, old.tags, old.scope WHERE old.forgotten_at IS NULL;
    INSERT INTO memory_fts(rowid, title, content, tags, scope)
    SELECT new.id, new.title, new.content, new.tags, new.scope WHERE new.forgotten_at IS NULL;
END;

-- Topics are versioned: a new version is a new row, an old one is never rewritten.
CREATE TABLE context_locks (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    topic      TEXT NOT NULL,
    version    INTEGER NOT NULL CHECK (version >= 1),
    content    TEXT NOT NULL,
    tags       TEXT NOT NULL DEFAULT '',
    session_id TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (project_id, topic, version)
);
CREATE TRIGGER context_locks_no_update BEFORE UPDATE ON context_locks
BEGIN SELECT RAISE(ABORT, 'context locks are versioned; add a new version instead'); END;

CREATE TABLE choices (
    id          TEXT PRIMARY KEY,
    -- Unguessable; the browser page and terminal need it to open this interaction.
    token       TEXT NOT NULL,
    project_id  INTEGER REFERENCES projects(id) ON DELETE SET NULL,
    session_id  TEXT,
    request     TEXT NOT NULL,
    status      TEXT NOT NULL
                CHECK (status IN ('pending', 'answered', 'timed_out', 'cancelled')),
    surface     TEXT,
    created_at  TEXT NOT NULL,
    deadline_at TEXT,
    answered_at TEXT,
    response    TEXT
);
CREATE INDEX choices_by_status ON choices(status, created_at);

-- Per-project counts kept by triggers, so listings and the cross-project index cost one
-- row read per project however much memory there is.
CREATE TABLE project_stats (
    project_id    INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    decisions     INTEGER NOT NULL DEFAULT 0,
    open_blockers INTEGER NOT NULL DEFAULT 0,
    memory_total  INTEGER NOT NULL DEFAULT 0,
    context_locks INTEGER NOT NULL DEFAULT 0
);
INSERT INTO project_stats (project_id) SELECT id FROM projects;
CREATE TRIGGER project_stats_new AFTER INSERT ON projects BEGIN
    INSERT INTO project_stats (project_id) VALUES (new.id);
END;
CREATE TRIGGER project_stats_memory_insert AFTER INSERT ON memory BEGIN
    UPDATE project_stats SET
        decisions = decisions + (new.forgotten_at IS NULL AND new.kind = 'decision'),
        open_blockers = open_blockers + (new.forgotten_at IS NULL AND new.kind = 'blocker' AND new.status IS 'open'),
        memory_total = memory_total + (new.forgotten_at IS NULL)
    WHERE project_id = new.project_id;
END;
CREATE TRIGGER project_stats_memory_update AFTER UPDATE ON memory BEGIN
    UPDATE project_stats SET
        decisions = decisions - (old.forgotten_at IS NULL AND old.kind = 'decision')
                              + (new.forgotten_at IS NULL AND new.kind = 'decision'),
        open_blockers = open_blockers - (old.forgotten_at IS NULL AND old.kind = 'blocker' AND old.status IS 'open')
                                      + (new.forgotten_at IS NULL AND new.kind = 'blocker' AND new.status IS 'open'),
        memory_total = memory_total - (old.forgotten_at IS NULL) + (new.forgotten_at IS NULL)
    WHERE project_id = new.project_id;
END;
CREATE TRIGGER project_stats_memory_delete AFTER DELETE ON memory BEGIN
    UPDATE project_stats SET
        decisions = decisions - (old.forgotten_at IS NULL AND old.kind = 'decision'),
        open_blockers = open_blockers - (old.forgotten_at IS NULL AND old.kind = 'blocker' AND old.status IS 'open'),
        memory_total = memory_total - (old.forgotten_at IS NULL)
    WHERE project_id = old.project_id;
END;
CREATE TRIGGER project_stats_lock_topic AFTER INSERT ON context_locks WHEN new.version = 1 BEGIN
    UPDATE project_stats SET context_locks = context_locks + 1 WHERE project_id = new.project_id;
END;
