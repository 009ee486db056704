-- decorrelate: correlated EXISTS, NOT EXISTS and IN subqueries of a WHERE become semi and anti joins; the subqueries left in place are optimized too.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note TEXT);
CREATE INDEX orders_customer ON orders (customer_id);
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.amount > 100);
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE NOT EXISTS (SELECT * FROM orders o WHERE o.customer_id = c.id) AND c.region = 3;
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE c.region IN (SELECT amount FROM orders o WHERE o.customer_id = c.id);
-- NOT IN between NOT NULL columns is an anti join
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE c.region NOT IN (SELECT amount FROM orders o WHERE o.customer_id = c.id);
-- a small outer side probes the subquery's index
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE c.id = 5 AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id LIMIT 1);
-- kept as subqueries: a nullable NOT IN, a non-equality correlation, an aggregate, an OR; their plans use the index
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE c.name NOT IN (SELECT note FROM orders o WHERE o.customer_id = c.id);
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id > c.id);
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE EXISTS (SELECT count(*) FROM orders o WHERE o.customer_id = c.id);
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE c.region = 1 OR EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id);
EXPLAIN QUERY PLAN SELECT name, (SELECT sum(amount) FROM orders o WHERE o.customer_id = c.id) FROM customers c;
-- decorrelate-scalar: a correlated aggregate subquery over a large outer side becomes a LEFT join with its groups
EXPLAIN QUERY PLAN SELECT name, (SELECT count(*) FROM orders o WHERE o.customer_id = c.id AND o.amount > 5) AS n FROM customers c;
-- the WHERE rejects the NULL of a customer without orders, so the LEFT join is an inner one: the groups probe customers by rowid
EXPLAIN QUERY PLAN SELECT name FROM customers c WHERE c.region < (SELECT max(amount) FROM orders o WHERE o.customer_id = c.id);
-- a single outer row keeps the per-row subquery (an index lookup)
EXPLAIN QUERY PLAN SELECT name, (SELECT sum(amount) FROM orders o WHERE o.customer_id = c.id) FROM customers c WHERE c.id = 3;
