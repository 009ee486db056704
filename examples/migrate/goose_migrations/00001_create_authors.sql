-- +goose Up
CREATE TABLE authors (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    bio  TEXT
);

-- +goose Down
DROP TABLE authors;
