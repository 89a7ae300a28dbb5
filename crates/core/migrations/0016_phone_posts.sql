-- Where the phone shows each question or project pick the relay posted: the platform,
-- the chat and the platform's message id. Kept so a restarted hub rewrites those
-- messages (an ended question's outcome, a waiting one's buttons drawn anew) rather
-- than posting them a second time; a question's rows go when it ends there.
CREATE TABLE phone_posts (
    question  TEXT NOT NULL,
    platform  TEXT NOT NULL,
    chat      TEXT NOT NULL,
    message   TEXT NOT NULL,
    posted_at TEXT NOT NULL,
    PRIMARY KEY (question, platform, chat, message)
) WITHOUT ROWID;
