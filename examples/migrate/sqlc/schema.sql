CREATE TABLE authors (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    bio  TEXT
);

CREATE TABLE books (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    author_id INTEGER NOT NULL REFERENCES authors (id) ON DELETE CASCADE,
    title     TEXT NOT NULL,
    published DATE,
    in_print  BOOLEAN NOT NULL DEFAULT TRUE,
    price     REAL
);
