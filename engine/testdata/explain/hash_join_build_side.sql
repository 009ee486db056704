-- hash-join-build-side: an inner hash join builds its hash table on the input estimated smaller.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE TABLE o (id INTEGER PRIMARY KEY, k, v INTEGER, n TEXT);
EXPLAIN QUERY PLAN SELECT * FROM orders o JOIN customers c ON c.id = o.customer_id;
EXPLAIN QUERY PLAN SELECT * FROM customers c JOIN orders o ON c.id = o.customer_id WHERE c.id = 42;
EXPLAIN QUERY PLAN SELECT c.name, o.amount FROM customers c JOIN orders o ON c.id = o.customer_id AND o.amount > c.region WHERE c.id BETWEEN 1 AND 5;
EXPLAIN QUERY PLAN SELECT * FROM customers c LEFT JOIN orders o ON c.id = o.customer_id WHERE c.id = 42;
EXPLAIN QUERY PLAN SELECT a.id, a.n, b.id, b.n FROM o a JOIN o b ON a.k = b.k WHERE a.id = 6 ORDER BY 3;
