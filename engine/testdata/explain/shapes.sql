-- shapes the planner leaves alone today: joins, grouping, ordering, set operations.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note TEXT);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_cust_amount ON orders (customer_id, amount);
CREATE UNIQUE INDEX customers_name ON customers (name);
CREATE VIEW big_orders AS SELECT id, customer_id, amount FROM orders WHERE amount > 100;

EXPLAIN QUERY PLAN SELECT c.id, c.name, count(*) AS n, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name ORDER BY total DESC, c.id LIMIT 10;
EXPLAIN QUERY PLAN SELECT DISTINCT region FROM customers;
EXPLAIN QUERY PLAN SELECT id FROM customers UNION SELECT customer_id FROM orders;
EXPLAIN QUERY PLAN SELECT * FROM orders ORDER BY amount;
EXPLAIN QUERY PLAN SELECT 1;
