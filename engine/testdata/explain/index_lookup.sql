-- index-lookup: equality on an index prefix, then a range on the next column; unique indexes win.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note TEXT);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_cust_amount ON orders (customer_id, amount);
CREATE UNIQUE INDEX customers_name ON customers (name);
CREATE VIEW big_orders AS SELECT id, customer_id, amount FROM orders WHERE amount > 100;

EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id = 7;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id = 7 AND amount >= 10 AND amount < 50;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id > 7;
EXPLAIN QUERY PLAN SELECT * FROM customers WHERE name = ? AND region = 3;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE amount = 7;
EXPLAIN QUERY PLAN SELECT count(*), sum(amount) FROM orders WHERE customer_id >= ? AND customer_id < ?;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id IS NULL;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id IS NULL AND amount > 5;
EXPLAIN QUERY PLAN SELECT * FROM customers WHERE name IS NULL;
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id IS NOT NULL;
