-- Every change to a team project records an event; each event is announced to the
-- Moorings listening on `mooring_changes`, so other machines' trays, dashboards and
-- resource subscribers refresh within a second instead of polling.
CREATE FUNCTION mooring_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mooring_changes', json_build_object('project', NEW.project, 'kind', NEW.kind, 'detail', NEW.detail)::text);
    RETURN NULL;
END
$$;
CREATE TRIGGER events_announce AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION mooring_announce();
