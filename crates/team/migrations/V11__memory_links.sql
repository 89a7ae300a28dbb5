-- How entries relate get columns, as in the SQLite store's 0017: which entry supersedes
-- this one and since when, the weekly digest a captured session was folded into and
-- when, and the key a captured session or a digest is found by. `data` keeps what an
-- entry says.
--
-- Row security (V9) hides every row from a connection that names no member, this
-- migration's included; the table's owner, which runs migrations, is held to it only
-- because it is forced. Lifting that for this transaction lets the rows move: the
-- ALTER TABLE holds the table's exclusive lock until the commit, so no other connection
-- reads or writes while it is lifted.
ALTER TABLE memory NO FORCE ROW LEVEL SECURITY;

ALTER TABLE memory
    ADD COLUMN superseded_by bigint,
    ADD COLUMN superseded_at timestamptz,
    ADD COLUMN folded_into bigint,
    ADD COLUMN folded_at timestamptz,
    ADD COLUMN key text;

UPDATE memory SET
    superseded_by = (data->>'superseded_by')::bigint,
    superseded_at = (data->>'superseded_at')::timestamptz,
    folded_at = (data->>'folded_at')::timestamptz,
    key = data->>'key'
WHERE jsonb_typeof(data) = 'object' AND (data ?| ARRAY['superseded_by', 'superseded_at', 'folded_at', 'key']);

-- A folded session's digest: the one listing it (a session brought back since is
-- superseded by nothing, but stays its digest's), else the one superseding it.
UPDATE memory s SET folded_into = coalesce(
    (SELECT d.id FROM memory d
     WHERE d.project_id = s.project_id AND d.kind = 'context_carry' AND d.key LIKE 'digest:%'
       AND jsonb_typeof(d.data->'sessions') = 'array' AND d.data->'sessions' @> to_jsonb(s.id)
     ORDER BY d.id DESC LIMIT 1),
    s.superseded_by)
WHERE s.kind = 'session' AND s.folded_at IS NOT NULL;

UPDATE memory SET data = data - 'superseded_by' - 'superseded_at' - 'folded_at'
WHERE jsonb_typeof(data) = 'object' AND (data ?| ARRAY['superseded_by', 'superseded_at', 'folded_at']);
UPDATE memory SET data = data - 'sessions'
WHERE kind = 'context_carry' AND key LIKE 'digest:%' AND jsonb_typeof(data) = 'object';

CREATE INDEX memory_by_key ON memory (project_id, kind, key) WHERE key IS NOT NULL;

ALTER TABLE memory FORCE ROW LEVEL SECURITY;
