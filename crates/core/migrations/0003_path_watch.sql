-- Version 3: what the code-path watcher needs.
-- The device and inode a code path had when last seen, so a renamed or moved directory
-- is recognised at its new place.
ALTER TABLE code_paths ADD COLUMN dev INTEGER;
ALTER TABLE code_paths ADD COLUMN ino INTEGER;

-- A counter bumped by every change that can alter resolution (projects' slugs and
-- statuses, code paths). Resolution keeps an in-memory index and rebuilds it only when
-- this moved, whichever process made the change.
CREATE TABLE registry_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    v  INTEGER NOT NULL
);
INSERT INTO registry_version (id, v) VALUES (1, 1);

CREATE TRIGGER rv_project_insert AFTER INSERT ON projects
BEGIN UPDATE registry_version SET v = v + 1 WHERE id = 1; END;
CREATE TRIGGER rv_project_delete AFTER DELETE ON projects
BEGIN UPDATE registry_version SET v = v + 1 WHERE id = 1; END;
-- UPDATE OF fires for columns named in SET even when unchanged: compare values.
CREATE TRIGGER rv_project_update AFTER UPDATE OF slug, status ON projects
WHEN OLD.slug IS NOT NEW.slug OR OLD.status IS NOT NEW.status
BEGIN UPDATE registry_version SET v = v + 1 WHERE id = 1; END;
CREATE TRIGGER rv_path_insert AFTER INSERT ON code_paths
BEGIN UPDATE registry_version SET v = v + 1 WHERE id = 1; END;
CREATE TRIGGER rv_path_delete AFTER DELETE ON code_paths
BEGIN UPDATE registry_version SET v = v + 1 WHERE id = 1; END;
CREATE TRIGGER rv_path_update AFTER UPDATE OF path, state, project_id ON code_paths
WHEN OLD.path IS NOT NEW.path OR OLD.state IS NOT NEW.state OR OLD.project_id IS NOT NEW.project_id
BEGIN UPDATE registry_version SET v = v + 1 WHERE id = 1; END;
