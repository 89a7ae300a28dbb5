-- Version 2: agent sessions, project memory with full-text search, context locks,
-- choices and persisted settings.
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
    -- Structured form of records that have one (a handover's fields), as JSON.
    data       TEXT,
    session_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX memory_by_project_kind ON memory(project_id, kind, created_at);

CREATE VIRTUAL TABLE memory_fts USING fts5(
    title, content, tags,
    content = 'memory', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory BEGIN
    INSERT INTO memory_fts(rowid, title, content, tags)
    VALUES (new.id, new.title, new.content, new.tags);
END;
CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags)
    VALUES ('delete', old.id, old.title, old.content, old.tags);
END;
CREATE TRIGGER memory_fts_update AFTER UPDATE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags)
    VALUES ('delete', old.id, old.title, old.content, old.tags);
    INSERT INTO memory_fts(rowid, title, content, tags)
    VALUES (new.id, new.title, new.content, new.tags);
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
