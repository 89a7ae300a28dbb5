-- Who wrote each entry, recorded as it is written (person, agent, import, mooring,
-- captured); see the SQLite store's 0014. Rows written before stay unrecorded, which
-- never reads as the person's. (Row security hides every row from a migration, so no
-- backfill is attempted here; the kinds that tell, sessions and digests, name it anyway.)
ALTER TABLE memory ADD COLUMN author text
    CHECK (author IS NULL OR author IN ('person', 'agent', 'import', 'mooring', 'captured'));
