-- Context locks of team projects: a topic's agreed content, versioned, never rewritten.
-- Writers of one project take turns on its row, and the key keeps two versions from ever
-- sharing a number.
CREATE TABLE context_locks (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    topic      TEXT NOT NULL,
    version    BIGINT NOT NULL CHECK (version >= 1),
    content    TEXT NOT NULL,
    tags       TEXT NOT NULL DEFAULT '',
    written_by TEXT,
    person_id  BIGINT REFERENCES people (id),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (project_id, topic, version)
);
