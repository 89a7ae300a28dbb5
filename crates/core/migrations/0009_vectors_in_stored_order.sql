-- Each vector's place in the order its project's vectors were stored (`seq`, the
-- project's `added` count then), so a reader's copy in memory reads only those stored
-- since it last looked. By entry id it missed a backfill's older entries (stored after
-- the newer ones), and a changed entry's new vector.
ALTER TABLE memory_vectors ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX memory_vectors_in_order ON memory_vectors(project_id, seq);

DROP TRIGGER memory_vector_added;
CREATE TRIGGER memory_vector_added AFTER INSERT ON memory_vectors BEGIN
    INSERT INTO vector_epochs (project_id, added) VALUES (new.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET added = added + 1;
    UPDATE memory_vectors SET seq = (SELECT added FROM vector_epochs WHERE project_id = new.project_id)
        WHERE memory_id = new.memory_id;
END;
CREATE TRIGGER memory_vector_replaced AFTER UPDATE OF vec ON memory_vectors BEGIN
    INSERT INTO vector_epochs (project_id, added) VALUES (new.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET added = added + 1;
    UPDATE memory_vectors SET seq = (SELECT added FROM vector_epochs WHERE project_id = new.project_id)
        WHERE memory_id = new.memory_id;
END;

-- A changed entry keeps its vector until the indexer replaces it (within a second in the
-- hub): dropping it made every reader read the whole project again, each turn of a
-- session whose record is rewritten. Forgetting still removes the vector at once.
DROP TRIGGER memory_queued_when_changed;
CREATE TRIGGER memory_queued_when_changed AFTER UPDATE OF title, content, tags ON memory
WHEN new.forgotten_at IS NULL
 AND (old.title IS NOT new.title OR old.content IS NOT new.content OR old.tags IS NOT new.tags) BEGIN
    INSERT OR IGNORE INTO vector_queue VALUES (new.id);
END;
