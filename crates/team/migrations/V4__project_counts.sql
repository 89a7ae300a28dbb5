-- The counts a project listing shows, kept with the project as memory and locks change
-- (as SQLite's project_stats triggers do): counting them at each listing read every
-- entry of every team project, so an agent's list_projects grew slower with each write.
-- A write already holds its project's row (last_used_at moves in the same statement), so
-- keeping the counts there takes no lock a writer did not have.
ALTER TABLE projects
    ADD COLUMN decisions     BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN open_blockers BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN entries       BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN lock_topics   BIGINT NOT NULL DEFAULT 0;

UPDATE projects p SET
    decisions = (SELECT count(*) FROM memory m
                 WHERE m.project_id = p.id AND m.forgotten_at IS NULL AND m.kind = 'decision'),
    open_blockers = (SELECT count(*) FROM memory m
                     WHERE m.project_id = p.id AND m.forgotten_at IS NULL
                       AND m.kind = 'blocker' AND m.status IS NOT DISTINCT FROM 'open'),
    entries = (SELECT count(*) FROM memory m WHERE m.project_id = p.id AND m.forgotten_at IS NULL),
    lock_topics = (SELECT count(DISTINCT l.topic) FROM context_locks l WHERE l.project_id = p.id);

-- What one memory row adds to its project's counts: one entry while not forgotten, and a
-- decision or an open blocker besides. An update moves the difference (forgetting, a
-- blocker resolved); a delete only comes with its project's.
CREATE FUNCTION mooring_count_memory() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d BIGINT := 0;
    b BIGINT := 0;
    e BIGINT := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.forgotten_at IS NULL THEN
        d := d + (NEW.kind = 'decision')::int;
        b := b + (NEW.kind = 'blocker' AND NEW.status IS NOT DISTINCT FROM 'open')::int;
        e := e + 1;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.forgotten_at IS NULL THEN
        d := d - (OLD.kind = 'decision')::int;
        b := b - (OLD.kind = 'blocker' AND OLD.status IS NOT DISTINCT FROM 'open')::int;
        e := e - 1;
    END IF;
    IF d <> 0 OR b <> 0 OR e <> 0 THEN
        UPDATE projects
        SET decisions = decisions + d, open_blockers = open_blockers + b, entries = entries + e
        WHERE id = COALESCE(NEW.project_id, OLD.project_id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER memory_counts AFTER INSERT OR UPDATE OR DELETE ON memory
    FOR EACH ROW EXECUTE FUNCTION mooring_count_memory();

-- A topic counts once, from its first row (a shared project's locks may arrive with
-- their history or without it).
CREATE FUNCTION mooring_count_locks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM context_locks
                   WHERE project_id = NEW.project_id AND topic = NEW.topic AND id <> NEW.id) THEN
        UPDATE projects SET lock_topics = lock_topics + 1 WHERE id = NEW.project_id;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER context_locks_counts AFTER INSERT ON context_locks
    FOR EACH ROW EXECUTE FUNCTION mooring_count_locks();
