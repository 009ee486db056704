-- eager-aggregate: a GROUP BY over an inner join of a column to another table's rowid groups the column's side before the join.
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, amount INTEGER NOT NULL, note, tag BLOB);
EXPLAIN QUERY PLAN SELECT c.id, c.name, count(*) AS n, sum(o.amount) AS total FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, c.name ORDER BY total DESC, c.id LIMIT 10;
-- the rowid side on the left, filters on both sides, avg/min/max/total, a bare column
EXPLAIN QUERY PLAN SELECT c.id, c.name, avg(o.amount), min(o.note), max(o.amount * 2), total(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.region = 3 AND o.amount > 10 GROUP BY c.id;
-- not applied: an aggregate of the rowid's side, a group key of the other side, no rowid among the keys
EXPLAIN QUERY PLAN SELECT c.id, sum(c.region) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, o.amount, count(*) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id, o.amount;
EXPLAIN QUERY PLAN SELECT c.region, count(*) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.region;
-- not applied: DISTINCT, FILTER, group_concat, a function argument, a join column without affinity, a LEFT join
EXPLAIN QUERY PLAN SELECT c.id, count(DISTINCT o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, count(*) FILTER (WHERE o.amount > 1) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, group_concat(o.note) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, sum(abs(o.amount)) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, count(*) FROM orders o JOIN customers c ON c.id = o.tag GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, count(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id;
-- a small filtered side: an index join looks up each pre-group's key; a swapped hash join
EXPLAIN QUERY PLAN SELECT c.id, c.name, count(*), sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.amount > 1 AND o.note > 0 GROUP BY c.id;
EXPLAIN QUERY PLAN SELECT c.id, c.name, count(*), sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.amount > 1 GROUP BY c.id;
-- grouped by the join column itself
EXPLAIN QUERY PLAN SELECT o.customer_id, count(*), sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY o.customer_id;
