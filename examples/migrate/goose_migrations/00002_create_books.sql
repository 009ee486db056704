-- +goose Up
CREATE TABLE books (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    author_id INTEGER NOT NULL REFERENCES authors (id) ON DELETE CASCADE,
    title     TEXT NOT NULL,
    published DATE,
    UNIQUE (author_id, title)
);
CREATE INDEX books_published ON books (published);

-- +goose Down
DROP TABLE books;
