-- pushdown-filters through an aggregate: a condition on a plain group column and a constant filters rows before grouping.
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, tag TEXT COLLATE NOCASE);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE VIEW per_customer AS SELECT customer_id, count(*) AS n, sum(amount) AS total FROM orders GROUP BY customer_id;
EXPLAIN QUERY PLAN SELECT * FROM per_customer WHERE customer_id = 42;
EXPLAIN QUERY PLAN SELECT customer_id, sum(amount) FROM orders GROUP BY customer_id HAVING customer_id > 10 AND sum(amount) > 100;
-- kept above: an aggregate result, a NOCASE group column, an expression
EXPLAIN QUERY PLAN SELECT * FROM per_customer WHERE total > 5;
EXPLAIN QUERY PLAN SELECT tag, count(*) FROM orders GROUP BY tag HAVING tag = 'a';
EXPLAIN QUERY PLAN SELECT customer_id, count(*) FROM orders GROUP BY customer_id HAVING customer_id + 1 = 5;
