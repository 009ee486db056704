-- join-order: a chain of three or more inner, comma and outer joins starts from the input estimated smallest and adds connected inputs by estimated join size; an outer join's NULL-extended side joins right above the inputs its ON reads.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL);
CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE items (order_id INTEGER, sku TEXT);
CREATE INDEX orders_customer ON orders (customer_id);
-- the filtered customer row comes first, its orders are probed, then their items
EXPLAIN QUERY PLAN SELECT i.sku, o.amount, c.name FROM items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE c.id = 7;
-- comma joins, keys from WHERE
EXPLAIN QUERY PLAN SELECT * FROM items i, orders o, customers c, regions r WHERE o.id = i.order_id AND c.id = o.customer_id AND r.id = c.region AND r.id = 3;
-- equal estimates: the written order stays
EXPLAIN QUERY PLAN SELECT * FROM items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id;
-- an input with no key to the others joins last, as a cross join
EXPLAIN QUERY PLAN SELECT * FROM regions r, items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id WHERE c.id = 1 AND o.amount > r.id;
-- the ON of the inner join after it rejects c's NULLs, so the LEFT JOIN is an inner join and the chain is ordered whole
EXPLAIN QUERY PLAN SELECT * FROM items i JOIN orders o ON o.id = i.order_id LEFT JOIN customers c ON c.id = o.customer_id JOIN regions r ON r.id = c.region WHERE r.id = 2;
-- a residual reading three inputs is placed where all three are joined
EXPLAIN QUERY PLAN SELECT * FROM items i JOIN orders o ON o.id = i.order_id JOIN customers c ON c.id = o.customer_id AND c.name <> i.sku || o.amount WHERE c.id = 7;
-- a LEFT JOIN sits right above the input its ON reads (c, one row), below the inner joins around it
EXPLAIN QUERY PLAN SELECT * FROM items i, orders o, customers c LEFT JOIN regions r ON r.name > c.name WHERE o.id = i.order_id AND o.customer_id = c.id AND c.id = 3;
-- a RIGHT JOIN is a LEFT JOIN of its right side: o (one row), then c by rowid, then regions
EXPLAIN QUERY PLAN SELECT * FROM regions r RIGHT JOIN customers c ON r.id = c.region JOIN orders o ON o.customer_id = c.id WHERE o.id = 5;
-- a WHERE condition on the NULL-extended side that keeps NULLs (IS NULL) filters above the LEFT JOIN, never in its ON
EXPLAIN QUERY PLAN SELECT * FROM orders o, customers c LEFT JOIN regions r ON r.id = c.region, items i WHERE o.customer_id = c.id AND i.order_id = o.id AND r.name IS NULL AND o.id = 9;
