-- How entries relate were keys inside each row's `data` JSON, read by hand wherever a
-- decision needed one: which entry supersedes this one and since when, which weekly
-- digest a captured session was folded into and when, and the key a captured session
-- or a digest is found by. They are columns now, read and written by one query module;
-- `data` keeps what an entry says (a session's record, a digest's figures, a
-- resolution). `key` stays in a session's record too: the record names its session.
ALTER TABLE memory ADD COLUMN superseded_by INTEGER;
ALTER TABLE memory ADD COLUMN superseded_at TEXT;
ALTER TABLE memory ADD COLUMN folded_into INTEGER;
ALTER TABLE memory ADD COLUMN folded_at TEXT;
ALTER TABLE memory ADD COLUMN key TEXT;

-- The keyword index follows only what it indexes: a link set (or this migration moving
-- every row's links) rewrote the row's index entry, as any change to the row did.
DROP TRIGGER memory_fts_update;
CREATE TRIGGER memory_fts_update AFTER UPDATE OF title, content, tags, forgotten_at ON memory BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, title, content, tags, scope)
    SELECT 'delete', old.id, old.title, old.content, old.tags, old.scope WHERE old.forgotten_at IS NULL;
    INSERT INTO memory_fts(rowid, title, content, tags, scope)
    SELECT new.id, new.title, new.content, new.tags, new.scope WHERE new.forgotten_at IS NULL;
END;

UPDATE memory SET
    superseded_by = json_extract(data, '$.superseded_by'),
    superseded_at = json_extract(data, '$.superseded_at'),
    folded_at = json_extract(data, '$.folded_at'),
    key = json_extract(data, '$.key')
WHERE json_valid(data) AND json_type(data) = 'object';

-- A folded session's digest: the one listing it (a session brought back since is
-- superseded by nothing, but stays its digest's), else the one superseding it.
UPDATE memory SET folded_into = coalesce(
    (SELECT d.id FROM memory d, json_each(CASE WHEN json_valid(d.data) THEN d.data END, '$.sessions') j
     WHERE d.project_id = memory.project_id AND d.kind = 'context_carry' AND d.key LIKE 'digest:%'
       AND j.value = memory.id
     ORDER BY d.id DESC LIMIT 1),
    superseded_by)
WHERE kind = 'session' AND folded_at IS NOT NULL;

UPDATE memory SET data = json_remove(data, '$.superseded_by', '$.superseded_at', '$.folded_at')
WHERE json_valid(data) AND json_type(data) = 'object'
  AND (superseded_by IS NOT NULL OR superseded_at IS NOT NULL OR folded_at IS NOT NULL);
UPDATE memory SET data = json_remove(data, '$.sessions')
WHERE kind = 'context_carry' AND key LIKE 'digest:%' AND json_valid(data);

CREATE INDEX memory_by_key ON memory(project_id, kind, key) WHERE key IS NOT NULL;
