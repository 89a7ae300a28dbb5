-- Who wrote an entry or lock that came from elsewhere (a team project kept on leaving
-- the team): the person's name there. Entries written here name their session's client.
ALTER TABLE memory ADD COLUMN written_by TEXT;
ALTER TABLE context_locks ADD COLUMN written_by TEXT;
