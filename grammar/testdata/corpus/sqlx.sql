# Statements from github.com/jmoiron/sqlx documentation and tests.
CREATE TABLE person (first_name text, last_name text, email text, added_at timestamp default current_timestamp)

CREATE TABLE place (country text, city text NULL, telcode integer)

INSERT INTO person (first_name, last_name, email) VALUES ($1, $2, $3)

INSERT INTO person (first_name, last_name, email) VALUES (:first_name, :last_name, :email)

INSERT INTO person (first_name, last_name, email) VALUES (:first_name, :last_name, :email), (:first_name, :last_name, :email)

INSERT INTO place (country, telcode) VALUES (?, ?)

SELECT * FROM person ORDER BY first_name ASC

SELECT * FROM person WHERE first_name=$1

SELECT * FROM person WHERE first_name=:fn

SELECT * FROM place ORDER BY telcode ASC

SELECT * FROM place WHERE telcode > ?

SELECT * FROM person WHERE first_name IN (?, ?, ?)

SELECT count(*) FROM place

SELECT p.first_name, pl.city FROM person p JOIN place pl ON pl.country = p.email

UPDATE person SET email = :email WHERE first_name = :first_name

DELETE FROM person WHERE last_name = @last

SELECT id, name FROM users WHERE id = ANY_VALUE

SELECT 1
