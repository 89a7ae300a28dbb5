-- Captured sessions: what an agent session did, recorded by the client's hooks without
-- the agent's help, kept as memory of a kind of its own ('session'), one entry per
-- client session, updated in place at each turn end (its data says how far the
-- client's transcript has been read, so a turn reads only what was added). SQLite cannot change a CHECK
-- constraint, so the memory table is rebuilt with the new kind (ids kept, so the FTS
-- index, which refers to rows by id, stays valid); its indexes and triggers come back
-- as they were.
CREATE TABLE memory_new (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN
               ('decision', 'blocker', 'summary', 'note', 'handover', 'context_carry', 'session')),
    title      TEXT NOT NULL,
    content    TEXT NOT NULL,
    tags       TEXT NOT NULL DEFAULT '',
    status     TEXT CHECK (status IS NULL OR status IN ('open', 'resolved')),
    data         TEXT,
    session_id   TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    forgotten_at TEXT,
    scope        TEXT GENERATED ALWAYS AS ('p' || project_id) VIRTUAL,
    written_by   TEXT
);
INSERT INTO memory_new (id, project_id, kind, title, content, tags, status, data, session_id,
                        created_at, updated_at, forgotten_at, written_by)
SELECT id, project_id, kind, title, content, tags, status, data, session_id,
       created_at, updated_at, forgotten_at, written_by FROM memory;
DROP TABLE memory;
ALTER TABLE memory_new RENAME TO memory;
CREATE INDEX memory_by_project_kind ON memory(project_id, kind, created_at);
CREATE INDEX memory_by_project_id ON memory(project_id, id);
CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory WHEN new.forgotten_at IS NULL BEGIN
    INSERT INTO memory_fts(rowid, title, content, tags, scope)
    VALUES (new.id, new.title, new.content, new.tags, new.scope);
END;
CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory WHEN old.forgotten_at IS NULL BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags, scope)
    VALUES ('delete', old.id, old.title, old.content, old.tags, old.scope);
END;
CREATE TRIGGER memory_fts_update AFTER UPDATE ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags, scope)
    SELECT 'delete', old.id, old.title, old.content, old.tags, old.scope WHERE old.forgotten_at IS NULL;
    INSERT INTO memory_fts(rowid, title, content, tags, scope)
    SELECT new.id, new.title, new.content, new.tags, new.scope WHERE new.forgotten_at IS NULL;
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
-- What each client session has been handed from memory (its preamble, earlier prompts'
-- recall), so a prompt's recall never repeats it. `key` names the client session (a
-- hash, never the client's own id). Rows older than a month are dropped as new ones come.
CREATE TABLE recall_given (
    key       TEXT NOT NULL,
    memory_id INTEGER NOT NULL,
    at        TEXT NOT NULL,
    PRIMARY KEY (key, memory_id)
) WITHOUT ROWID;
CREATE INDEX recall_given_by_age ON recall_given(at);
-- A project's own capture switch (`mooring capture off --project SLUG`), beside the
-- global setting: this machine's choice, kept with its row.
ALTER TABLE projects ADD COLUMN capture INTEGER NOT NULL DEFAULT 1 CHECK (capture IN (0, 1));
