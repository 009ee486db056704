ALTER TABLE notes ADD COLUMN created_at TIMESTAMP;
CREATE INDEX notes_created ON notes (created_at);
