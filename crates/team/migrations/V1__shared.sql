-- What a team shares: people, projects with their owner and members, memory and the
-- event log. What belongs to one machine (code paths, focus, agent sessions, pending
-- questions, settings) stays in each machine's own SQLite store.

CREATE TABLE people (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 100),
    email       TEXT,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE projects (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug         TEXT NOT NULL UNIQUE,
    name         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'archived')),
    repo_url     TEXT,
    owner_id     BIGINT REFERENCES people (id),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_used_at TIMESTAMPTZ,
    archived_at  TIMESTAMPTZ
);

CREATE TABLE members (
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    person_id  BIGINT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('owner', 'member', 'viewer')),
    PRIMARY KEY (project_id, person_id)
);

-- Search words as FTS5's porter tokenizer makes them on SQLite: English stems, and no
-- stop words dropped (every word a person types is required on both backends).
CREATE TEXT SEARCH DICTIONARY mooring_stem (TEMPLATE = snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION mooring (COPY = english);
ALTER TEXT SEARCH CONFIGURATION mooring
    ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH mooring_stem;

-- Title and tags weigh more than content (as on SQLite: title 5, tags 3, content 1).
CREATE TABLE memory (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id   BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    title        TEXT NOT NULL,
    content      TEXT NOT NULL,
    tags         TEXT NOT NULL DEFAULT '',
    status       TEXT,
    data         JSONB,
    written_by   TEXT,
    person_id    BIGINT REFERENCES people (id),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    forgotten_at TIMESTAMPTZ,
    search       tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('mooring', title), 'A')
        || setweight(to_tsvector('mooring', tags), 'B')
        || setweight(to_tsvector('mooring', content), 'D')
    ) STORED
);
CREATE INDEX memory_page ON memory (project_id, id DESC) WHERE forgotten_at IS NULL;
CREATE INDEX memory_search ON memory USING GIN (search) WHERE forgotten_at IS NULL;

CREATE TABLE events (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project_id BIGINT REFERENCES projects (id) ON DELETE SET NULL,
    project    TEXT NOT NULL,
    kind       TEXT NOT NULL,
    detail     JSONB NOT NULL,
    person_id  BIGINT REFERENCES people (id),
    at         TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX events_project ON events (project_id, id DESC);
