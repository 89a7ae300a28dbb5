-- Recall by meaning: one vector per live entry (by the embedding model `model` names),
-- an i8 quantization with its scale (see mooring-embed). Entries wait in `vector_queue`
-- until the indexer embeds them: new ones, changed ones, and every entry there before
-- vectors were (the backfill). The queue row goes in the same transaction as the vector,
-- so an indexer killed midway resumes where it stopped, with nothing twice.
CREATE TABLE memory_vectors (
    memory_id  INTEGER PRIMARY KEY REFERENCES memory(id) ON DELETE CASCADE,
    project_id INTEGER NOT NULL,
    model      TEXT NOT NULL,
    vec        BLOB NOT NULL
);
CREATE INDEX memory_vectors_by_project ON memory_vectors(project_id, memory_id);

CREATE TABLE vector_queue (memory_id INTEGER PRIMARY KEY REFERENCES memory(id) ON DELETE CASCADE);
INSERT INTO vector_queue SELECT id FROM memory WHERE forgotten_at IS NULL;

-- How a project's vectors changed, so a reader's copy in memory knows whether to read
-- the newer ones only (`added`) or all of them again (`removed`).
CREATE TABLE vector_epochs (
    project_id INTEGER PRIMARY KEY,
    added      INTEGER NOT NULL DEFAULT 0,
    removed    INTEGER NOT NULL DEFAULT 0
);

CREATE TRIGGER memory_queued_when_added AFTER INSERT ON memory WHEN new.forgotten_at IS NULL BEGIN
    INSERT OR IGNORE INTO vector_queue VALUES (new.id);
END;
CREATE TRIGGER memory_queued_when_changed AFTER UPDATE OF title, content, tags ON memory
WHEN new.forgotten_at IS NULL BEGIN
    DELETE FROM memory_vectors WHERE memory_id = new.id;
    INSERT OR IGNORE INTO vector_queue VALUES (new.id);
END;
-- Forgotten memory leaves no vector behind.
CREATE TRIGGER memory_vector_gone_when_forgotten AFTER UPDATE OF forgotten_at ON memory
WHEN new.forgotten_at IS NOT NULL BEGIN
    DELETE FROM memory_vectors WHERE memory_id = new.id;
    DELETE FROM vector_queue WHERE memory_id = new.id;
END;
CREATE TRIGGER memory_vector_added AFTER INSERT ON memory_vectors BEGIN
    INSERT INTO vector_epochs (project_id, added) VALUES (new.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET added = added + 1;
END;
CREATE TRIGGER memory_vector_removed AFTER DELETE ON memory_vectors BEGIN
    INSERT INTO vector_epochs (project_id, removed) VALUES (old.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET removed = removed + 1;
END;
