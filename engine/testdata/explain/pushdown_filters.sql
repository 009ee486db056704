-- pushdown-filters: WHERE conjuncts move into join sides, views and FROM subqueries; cross-side equalities become hash keys.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note TEXT);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_cust_amount ON orders (customer_id, amount);
CREATE UNIQUE INDEX customers_name ON customers (name);
CREATE VIEW big_orders AS SELECT id, customer_id, amount FROM orders WHERE amount > 100;

EXPLAIN QUERY PLAN SELECT c.name, o.amount FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.region = 3 AND o.amount > 10;
EXPLAIN QUERY PLAN SELECT * FROM customers c, orders o WHERE c.id = o.customer_id AND c.id = 42;
EXPLAIN QUERY PLAN SELECT * FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE c.region = 1 AND o.amount IS NULL;
EXPLAIN QUERY PLAN SELECT * FROM big_orders WHERE customer_id = 9;
EXPLAIN QUERY PLAN SELECT * FROM (SELECT id, amount * 2 AS twice FROM orders) WHERE id = 3 AND twice > 8;
EXPLAIN QUERY PLAN SELECT * FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.name LIKE 'a%';
EXPLAIN QUERY PLAN SELECT * FROM customers c RIGHT JOIN orders o ON o.customer_id = c.id WHERE c.region = 2;
-- IN lists and BETWEEN on one table of a comma join go below the join, so the cross product is built from the filtered sides.
EXPLAIN QUERY PLAN SELECT c.name, o.amount FROM customers c, orders o WHERE c.region IN (1, 5, 9) AND o.amount BETWEEN 10 AND 20 AND 443 = o.note;
-- A condition that reads no column stays above the join, where it is evaluated once per execution.
EXPLAIN QUERY PLAN SELECT * FROM customers c, orders o, customers d WHERE 1 = 0 AND c.region IN (1, 2) AND d.id = o.customer_id;
-- An outer join whose NULL-extended rows WHERE rejects anyway is an inner join: its conditions move into the sides and keys.
EXPLAIN QUERY PLAN SELECT * FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.amount > 5;
EXPLAIN QUERY PLAN SELECT * FROM customers c, orders o RIGHT JOIN customers d ON d.id = o.customer_id WHERE c.region = o.amount + 1;
EXPLAIN QUERY PLAN SELECT * FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.amount IS NULL OR o.amount > 5;
-- A LIKE with a literal pattern cannot fail: it moves into its table's side, and the ON it leaves is pushable, so the chain is reordered.
EXPLAIN QUERY PLAN SELECT * FROM customers c, orders o, customers d JOIN orders p ON p.customer_id = d.id AND p.note LIKE 'x4%' WHERE c.id = o.customer_id AND o.id = p.id;
-- A LEFT JOIN inside a comma join whose NULL-extended rows WHERE rejects is inner too, so the whole chain is reordered.
EXPLAIN QUERY PLAN SELECT count(*) FROM customers c LEFT JOIN orders o, customers d, orders p WHERE o.amount < p.amount + 0 AND d.id = c.id AND p.customer_id = d.region;
