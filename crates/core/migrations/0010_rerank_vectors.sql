-- Re-ranking (the `rerank` setting): each live entry's vector by the sentence encoder,
-- i8-quantized as in memory_vectors. Entries without one are found by what is missing,
-- so no queue: a changed entry loses its vector (and is encoded again), a forgotten one
-- loses it for good.
CREATE TABLE rerank_vectors (
    memory_id INTEGER PRIMARY KEY REFERENCES memory(id) ON DELETE CASCADE,
    model     TEXT NOT NULL,
    vec       BLOB NOT NULL
);
CREATE TRIGGER rerank_vector_stale_when_changed AFTER UPDATE OF title, content, tags ON memory
WHEN old.title IS NOT new.title OR old.content IS NOT new.content OR old.tags IS NOT new.tags BEGIN
    DELETE FROM rerank_vectors WHERE memory_id = new.id;
END;
CREATE TRIGGER rerank_vector_gone_when_forgotten AFTER UPDATE OF forgotten_at ON memory
WHEN new.forgotten_at IS NOT NULL BEGIN
    DELETE FROM rerank_vectors WHERE memory_id = new.id;
END;
