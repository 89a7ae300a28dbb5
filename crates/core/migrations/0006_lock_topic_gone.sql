-- A project moved into the team takes its context locks along (their local rows are
-- deleted); a topic whose last version goes stops counting, or the listing would count
-- it again when the project comes back with `team leave --keep`.
CREATE TRIGGER project_stats_lock_topic_gone AFTER DELETE ON context_locks
WHEN NOT EXISTS (SELECT 1 FROM context_locks WHERE project_id = old.project_id AND topic = old.topic)
BEGIN
    UPDATE project_stats SET context_locks = context_locks - 1 WHERE project_id = old.project_id;
END;
UPDATE project_stats SET context_locks =
    (SELECT count(DISTINCT topic) FROM context_locks l WHERE l.project_id = project_stats.project_id);
