-- +goose Up
ALTER TABLE authors ADD COLUMN book_count INTEGER NOT NULL DEFAULT 0;

-- +goose StatementBegin
CREATE TRIGGER books_count AFTER INSERT ON books
BEGIN
    UPDATE authors SET book_count = book_count + 1 WHERE id = NEW.author_id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER books_count;
ALTER TABLE authors DROP COLUMN book_count;
