-- Every statement already filters by membership; the database now enforces it too, so a
-- bug in one query cannot show a project's memory to someone who is not in it. Each
-- Mooring names its person on every connection (`mooring.person`, set when the pool
-- opens the connection); a connection that names no one, or a non-member, sees and
-- writes no row of these tables. (A superuser bypasses row security: give the team a
-- plain role, as `mooring team status` advises.)
CREATE FUNCTION mooring_my_projects() RETURNS SETOF bigint LANGUAGE sql STABLE AS $$
    SELECT mb.project_id FROM members mb JOIN people pe ON pe.id = mb.person_id
    WHERE pe.name = current_setting('mooring.person', true)
$$;

-- `IN (SELECT …)` makes the membership list one hashed sub-plan per statement, not a
-- lookup per row.
ALTER TABLE memory ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory FORCE ROW LEVEL SECURITY;
CREATE POLICY members_only ON memory
    USING (project_id IN (SELECT mooring_my_projects()));

ALTER TABLE context_locks ENABLE ROW LEVEL SECURITY;
ALTER TABLE context_locks FORCE ROW LEVEL SECURITY;
CREATE POLICY members_only ON context_locks
    USING (project_id IN (SELECT mooring_my_projects()));

ALTER TABLE memory_vectors ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory_vectors FORCE ROW LEVEL SECURITY;
CREATE POLICY members_only ON memory_vectors
    USING (project_id IN (SELECT mooring_my_projects()));

ALTER TABLE vector_queue ENABLE ROW LEVEL SECURITY;
ALTER TABLE vector_queue FORCE ROW LEVEL SECURITY;
CREATE POLICY members_only ON vector_queue
    USING (memory_id IN (SELECT id FROM memory));

-- A deleted project's events keep no project id; they name only the project and kind.
ALTER TABLE events ENABLE ROW LEVEL SECURITY;
ALTER TABLE events FORCE ROW LEVEL SECURITY;
CREATE POLICY members_only ON events
    USING (project_id IS NULL OR project_id IN (SELECT mooring_my_projects()));

-- Every Mooring listening hears every announcement, members or not: they carry which
-- project changed and how, and a detail only for a hand-off (who to whom, which the new
-- owner's tray tells them); the rest (a lock's topic, counts) is read by members.
CREATE OR REPLACE FUNCTION mooring_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mooring_changes', json_build_object(
        'project', NEW.project, 'kind', NEW.kind,
        'detail', CASE WHEN NEW.kind = 'handed_off' THEN NEW.detail ELSE '{}'::jsonb END)::text);
    RETURN NULL;
END
$$;
