-- A project's entries of one kind, newest first, without walking its other entries: the
-- context preamble asks for the latest open blockers, decisions, summaries and handover
-- of a project, and on a project with 30,000 notes and no blocker each of those walked
-- past every note (project_context over stdio 10 ms instead of about 1). SQLite has had
-- memory_by_project_kind since its first memory migration.
CREATE INDEX memory_kind_page ON memory (project_id, kind, id DESC) WHERE forgotten_at IS NULL;
