-- index-join: a small left side probes the right table's rowid or index per row instead of hashing the whole right table.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE TABLE items (order_id INTEGER, line INTEGER, sku TEXT, PRIMARY KEY (order_id, line));
-- rowid probe: one customer row per order of customer 42's rowid range
EXPLAIN QUERY PLAN SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = 7;
-- secondary index probe, sides swapped: the filtered customers side is the small one
EXPLAIN QUERY PLAN SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.id = 42;
-- LEFT join probes the right side's index and keeps unmatched rows
EXPLAIN QUERY PLAN SELECT c.name, o.amount FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE c.id = 42;
-- a composite primary key probed by both keys, a residual kept
EXPLAIN QUERY PLAN SELECT o.id, i.sku FROM orders o JOIN items i ON i.order_id = o.id AND i.line = o.amount AND i.sku <> 'x' WHERE o.id = 3;
-- a key the index does not cover is checked as a residual
EXPLAIN QUERY PLAN SELECT o.id FROM customers c JOIN orders o ON o.customer_id = c.id AND o.amount = c.region WHERE c.id = 5;
-- both sides large: the hash join stays
EXPLAIN QUERY PLAN SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id;
-- RIGHT join keeps the hash join
EXPLAIN QUERY PLAN SELECT c.name, o.amount FROM customers c RIGHT JOIN orders o ON o.customer_id = c.id WHERE c.id = 42;
-- a VALUES list probes an index; NULL keys match nothing
CREATE TABLE t1 (id INTEGER PRIMARY KEY, k, v INTEGER, s TEXT);
CREATE INDEX t1_k ON t1 (k);
EXPLAIN QUERY PLAN SELECT v.column1, t1.id FROM (VALUES (1), ('1'), (2), (NULL)) v JOIN t1 ON t1.k = v.column1 AND t1.s > 'a';
