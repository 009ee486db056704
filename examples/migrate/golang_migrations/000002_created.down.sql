DROP INDEX notes_created;
ALTER TABLE notes DROP COLUMN created_at;
