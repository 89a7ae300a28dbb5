-- A message for a project with several live sessions waits, held, until the person picks
-- one on the phone; it then goes to that session only (`for_session`, the client
-- session's key) or, picked "any", to the first that prompts (NULL).
ALTER TABLE phone_messages ADD COLUMN for_session TEXT;
ALTER TABLE phone_messages ADD COLUMN held INTEGER NOT NULL DEFAULT 0 CHECK (held IN (0, 1));
