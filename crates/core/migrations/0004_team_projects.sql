-- Team projects this machine knows. Their row in `projects` holds what resolution needs
-- (slug, name, status, repository URL) and this machine's own code paths; their memory
-- lives in the team database, where `team_id` names them.
CREATE TABLE team_projects (
    project_id INTEGER PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
    team_id    INTEGER NOT NULL UNIQUE,
    synced_at  TEXT NOT NULL
);
