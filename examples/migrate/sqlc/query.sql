-- name: GetAuthor :one
SELECT * FROM authors
WHERE id = ? LIMIT 1;

-- name: ListAuthors :many
SELECT * FROM authors
ORDER BY name;

-- name: CreateAuthor :one
INSERT INTO authors (name, bio)
VALUES (?, ?)
RETURNING *;

-- name: UpdateAuthorBio :exec
UPDATE authors SET bio = ?
WHERE id = ?;

-- name: DeleteAuthor :execrows
DELETE FROM authors
WHERE id = ?;

-- name: CreateBook :execresult
INSERT INTO books (author_id, title, published, in_print, price)
VALUES (?, ?, ?, ?, ?);

-- name: ListAuthorsByIDs :many
SELECT * FROM authors
WHERE id IN (sqlc.slice('ids'))
ORDER BY name;

-- name: BooksPublishedAfter :many
SELECT books.id, books.title, books.published, authors.name AS author_name
FROM books
JOIN authors ON authors.id = books.author_id
WHERE books.published > sqlc.arg(after) AND books.in_print = sqlc.arg(in_print)
ORDER BY books.published;

-- name: CountBooksByAuthor :many
SELECT authors.name, COUNT(books.id) AS book_count, CAST(COALESCE(SUM(books.price), 0) AS REAL) AS total_price
FROM authors
LEFT JOIN books ON books.author_id = authors.id
GROUP BY authors.id, authors.name
ORDER BY book_count DESC, authors.name;
