-- Who wrote each entry, recorded as it is written: the person (CLI, REST with the token,
-- the dashboard, the paired phone), an agent (MCP), an import, Mooring (a digest) or a
-- captured session. Before this only the writing session's client was kept, and an entry
-- without one read as the person's, which any session-less MCP call could forge. Older
-- rows get what can be told from them; the rest stay unrecorded (never the person).
ALTER TABLE memory ADD COLUMN author TEXT
    CHECK (author IS NULL OR author IN ('person', 'agent', 'import', 'mooring', 'captured'));
UPDATE memory SET author = 'captured' WHERE kind = 'session';
UPDATE memory SET author = 'mooring' WHERE kind = 'context_carry' AND (' ' || tags || ' ') LIKE '% digest %';
UPDATE memory SET author = 'import' WHERE author IS NULL AND json_extract(data, '$.import') IS NOT NULL;
UPDATE memory SET author = 'agent' WHERE author IS NULL AND session_id IS NOT NULL;
