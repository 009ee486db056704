-- index-lookup with IN (list): one seek per distinct value of the list on the column after the equality prefix, rows in key order; the IN conjunct leaves the filter.
CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c TEXT COLLATE NOCASE);
CREATE INDEX t_a ON t (a);
CREATE INDEX t_ab ON t (a, b);
CREATE INDEX t_c ON t (c);

EXPLAIN QUERY PLAN SELECT * FROM t WHERE a IN (3, 1, 2);
EXPLAIN QUERY PLAN SELECT id, b FROM t WHERE a = 5 AND b IN ('x', 'y');
EXPLAIN QUERY PLAN SELECT * FROM t WHERE a IN (1, ?) AND b > 'q';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE a NOT IN (1, 2);
EXPLAIN QUERY PLAN SELECT * FROM t WHERE a IN (1, b);
EXPLAIN QUERY PLAN SELECT * FROM t WHERE c IN ('A', 'b');
EXPLAIN QUERY PLAN SELECT * FROM t WHERE c COLLATE BINARY IN ('A', 'b');
EXPLAIN QUERY PLAN SELECT a FROM t WHERE a IN (2, 1) ORDER BY a;
