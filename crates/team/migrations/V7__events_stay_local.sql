-- Events that describe one machine (a code path's absolute path, a path moved or gone,
-- a directory bound by a marker or a remote, a session bound, the focus, an import from a
-- directory, an unused project paused there) were copied into the team's history when a
-- project was shared, and so showed the owner's paths and home directory to every member.
-- Sharing no longer copies them (mooring_core::store::events::SHARED_KINDS); this takes
-- out the copies already made. The owner's own machine keeps them in its local log.
DELETE FROM events
WHERE kind IN ('code_path_added', 'code_path_removed', 'path_moved', 'path_missing',
               'path_restored', 'remote_bound', 'marker_bound', 'session_bound',
               'focus_set', 'imported', 'auto_paused', 'auto_resumed', 'kept_from_team');
