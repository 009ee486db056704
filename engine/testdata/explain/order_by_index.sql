-- order-by-index: a Sort the scan already satisfies disappears; a top-N over a full scan reads an index in key order.
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note TEXT COLLATE NOCASE);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_cust_amount ON orders (customer_id, amount);
CREATE INDEX orders_note ON orders (note);
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY id;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id > 10 ORDER BY id LIMIT 5;
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY id DESC;
EXPLAIN QUERY PLAN SELECT amount FROM orders WHERE customer_id = 3 ORDER BY amount;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id > 3 ORDER BY customer_id;
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY customer_id LIMIT 10;
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY customer_id;
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY note LIMIT 10;
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY customer_id NULLS LAST LIMIT 10;
EXPLAIN QUERY PLAN SELECT customer_id, count(*) FROM orders GROUP BY customer_id ORDER BY customer_id;
