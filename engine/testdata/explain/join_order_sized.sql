-- join-order with table sizes: tables ANALYZE has not measured count their size class (the rows read from each table's tree when the statement is bound, rounded to a half power of ten) instead of a million rows each, so the smallest inputs start the chain and build the hash tables.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE items (order_id INTEGER, sku TEXT);
CREATE TABLE empty (order_id INTEGER, note TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5) INSERT INTO regions SELECT i, 'r' || i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) INSERT INTO customers SELECT i, 'c' || i, i % 5 + 1 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) INSERT INTO orders SELECT i, i % 300 + 1, i % 97 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO items SELECT i % 3000 + 1, 's' || (i % 50) FROM n;
-- equal default estimates kept the written order (join_order.golden); here regions (5 rows) starts, then customers, orders, and the 20,000 items probe last
EXPLAIN QUERY PLAN SELECT * FROM items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id JOIN regions r ON r.id = c.region;
-- whichever side it is written on, the smaller table builds the hash table
EXPLAIN QUERY PLAN SELECT count(*) FROM customers c JOIN items i ON i.sku = c.name;
EXPLAIN QUERY PLAN SELECT count(*) FROM items i JOIN customers c ON i.sku = c.name;
-- an empty table is in the one-row class: it starts the chain, which then ends at once
EXPLAIN QUERY PLAN SELECT count(*) FROM items i, orders o, empty e WHERE o.id = i.order_id AND e.order_id = o.id;
