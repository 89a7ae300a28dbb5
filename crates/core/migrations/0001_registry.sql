-- Version 1: the project registry and its audit log.
CREATE TABLE projects (
    id           INTEGER PRIMARY KEY,
    slug         TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'active'
                 CHECK (status IN ('active', 'paused', 'archived')),
    repo_url     TEXT,
    notes_path   TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    last_used_at TEXT,
    archived_at  TEXT
);

CREATE TABLE code_paths (
    id           INTEGER PRIMARY KEY,
    project_id   INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    path         TEXT NOT NULL UNIQUE,
    state        TEXT NOT NULL DEFAULT 'present' CHECK (state IN ('present', 'missing')),
    last_seen_at TEXT,
    added_at     TEXT NOT NULL
);
CREATE INDEX code_paths_by_project ON code_paths(project_id);

-- No foreign key: the log outlives the project it tells about.
CREATE TABLE events (
    id           INTEGER PRIMARY KEY,
    project_id   INTEGER,
    project_slug TEXT NOT NULL,
    kind         TEXT NOT NULL,
    detail       TEXT NOT NULL DEFAULT '{}',
    at           TEXT NOT NULL
);
CREATE INDEX events_by_project ON events(project_id, id);

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
