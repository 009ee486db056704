-- rowid-lookup: equality and ranges on the rowid become a cursor seek.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note TEXT);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_cust_amount ON orders (customer_id, amount);
CREATE UNIQUE INDEX customers_name ON customers (name);
CREATE VIEW big_orders AS SELECT id, customer_id, amount FROM orders WHERE amount > 100;

EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id = 5;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id = ? AND amount > 3;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id >= 10 AND id < 20;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE id > 10;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE 5 = id;
