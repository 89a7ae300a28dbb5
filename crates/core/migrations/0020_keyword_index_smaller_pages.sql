-- The keyword index's leaf pages at about 2,000 bytes rather than FTS5's 4,050. A search
-- walks matches newest first, and FTS5 starts such a walk in each segment by listing
-- every entry of the doclist's last page: a common word's page listed whole, for each
-- word of the search and each segment. Half the page, half that listing: a write's
-- duplicate check at 100,000 entries took 0.50 ms rather than 0.55 (`bench/`
-- write-guard). Segments written from now on use it; the hub's merges rewrite older ones.
INSERT INTO memory_fts(memory_fts, rank) VALUES ('pgsz', 2000);
