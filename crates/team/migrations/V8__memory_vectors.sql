-- Recall by meaning for team projects, as on SQLite (its migrations 0008 and 0009): one
-- vector per live entry (`model` names the embedding model; `vec` an i8 quantization
-- with its scale, see mooring-embed), ranked in Mooring rather than by an extension
-- (Debian's PostgreSQL has no pgvector). Entries wait in `vector_queue` until a member's
-- hub embeds them; a vector goes in the same transaction that takes its entry off the
-- queue. `seq` orders a project's vectors as stored, and `vector_epochs` counts what was
-- stored and removed, so each hub's copy in memory reads only what is new.
CREATE TABLE memory_vectors (
    memory_id  BIGINT PRIMARY KEY REFERENCES memory (id) ON DELETE CASCADE,
    project_id BIGINT NOT NULL,
    model      TEXT NOT NULL,
    vec        BYTEA NOT NULL,
    seq        BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX memory_vectors_in_order ON memory_vectors (project_id, seq);
CREATE INDEX memory_vectors_newest ON memory_vectors (project_id, memory_id);

-- `claimed_at`: when a hub took the entry to embed it, so hubs embedding at once take
-- different entries; a claim a stopped hub left behind lapses after a minute.
CREATE TABLE vector_queue (
    memory_id  BIGINT PRIMARY KEY REFERENCES memory (id) ON DELETE CASCADE,
    claimed_at TIMESTAMPTZ
);
INSERT INTO vector_queue (memory_id) SELECT id FROM memory WHERE forgotten_at IS NULL;

CREATE TABLE vector_epochs (
    project_id BIGINT PRIMARY KEY,
    added      BIGINT NOT NULL DEFAULT 0,
    removed    BIGINT NOT NULL DEFAULT 0
);

-- New entries wait for their vector (one statement for a whole import or share).
CREATE FUNCTION mooring_queue_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_queue (memory_id) SELECT id FROM added WHERE forgotten_at IS NULL ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER memory_queued_when_added AFTER INSERT ON memory
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION mooring_queue_added();

-- A changed entry waits for its new text's vector (keeping the old one until then, and
-- freed from a claim made for its old text); a forgotten one leaves no vector behind.
CREATE FUNCTION mooring_vector_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.forgotten_at IS NOT NULL THEN
        DELETE FROM memory_vectors WHERE memory_id = NEW.id;
        DELETE FROM vector_queue WHERE memory_id = NEW.id;
    ELSIF (OLD.title, OLD.content, OLD.tags) IS DISTINCT FROM (NEW.title, NEW.content, NEW.tags) THEN
        INSERT INTO vector_queue (memory_id) VALUES (NEW.id)
            ON CONFLICT (memory_id) DO UPDATE SET claimed_at = NULL;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER memory_vector_follows AFTER UPDATE OF title, content, tags, forgotten_at ON memory
    FOR EACH ROW EXECUTE FUNCTION mooring_vector_follows();

-- Each vector stored (or replaced) takes the project's next place in the stored order.
CREATE FUNCTION mooring_vector_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_epochs AS e (project_id, added) VALUES (NEW.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET added = e.added + 1
        RETURNING e.added INTO NEW.seq;
    RETURN NEW;
END $$;
CREATE TRIGGER memory_vector_stored BEFORE INSERT OR UPDATE OF vec ON memory_vectors
    FOR EACH ROW EXECUTE FUNCTION mooring_vector_stored();

CREATE FUNCTION mooring_vector_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO vector_epochs AS e (project_id, removed) VALUES (OLD.project_id, 1)
        ON CONFLICT (project_id) DO UPDATE SET removed = e.removed + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER memory_vector_removed AFTER DELETE ON memory_vectors
    FOR EACH ROW EXECUTE FUNCTION mooring_vector_removed();
