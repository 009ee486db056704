-- group-by-rowid: GROUP BY a table's rowid and other columns of the same row groups by the rowid alone.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
EXPLAIN QUERY PLAN SELECT c.id, c.name, count(*) AS n, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name ORDER BY total DESC, c.id LIMIT 10;
EXPLAIN QUERY PLAN SELECT c.name, c.region, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name, c.rowid, c.region HAVING count(o.id) > 1;
-- columns of another table, or computed, stay group keys
EXPLAIN QUERY PLAN SELECT c.id, o.amount, c.name || 'x', count(*) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, o.amount, c.name || 'x';
