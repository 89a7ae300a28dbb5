-- The hub's tidying step (`store::memory::merge_index`) merges any level of the keyword
-- index holding two segments or more into the next, rather than every segment into one:
-- a search then seeks in about one segment per level, and the whole index is no longer
-- rewritten after each write. FTS5 keeps the setting in its own config table.
INSERT INTO memory_fts(memory_fts, rank) VALUES ('usermerge', 2);
