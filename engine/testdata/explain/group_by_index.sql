-- group-by-index: an aggregate whose input arrives ordered by its group keys (an index scan's columns after its equality prefix, or the rowid) groups by comparing each key with the last, with no hash table, and emits groups in key order; a full scan switches to a covering index led by the keys when only count/min/max are computed.
CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c TEXT, n TEXT COLLATE NOCASE);
CREATE INDEX t_ab ON t (a, b);
CREATE INDEX t_n ON t (n);

EXPLAIN QUERY PLAN SELECT a, count(*) FROM t GROUP BY a;
EXPLAIN QUERY PLAN SELECT a, b, max(id) FROM t GROUP BY a, b;
EXPLAIN QUERY PLAN SELECT b, count(*) FROM t WHERE a = 3 GROUP BY b;
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a;
EXPLAIN QUERY PLAN SELECT a, count(c) FROM t GROUP BY a;
EXPLAIN QUERY PLAN SELECT b, a, count(*) FROM t GROUP BY b, a;
EXPLAIN QUERY PLAN SELECT n, count(*) FROM t GROUP BY n;
EXPLAIN QUERY PLAN SELECT id, count(*) FROM t GROUP BY id;
EXPLAIN QUERY PLAN SELECT a, count(*) FROM t WHERE a > 2 AND b < 5 GROUP BY a;
EXPLAIN QUERY PLAN SELECT a, count(*) FROM t GROUP BY a ORDER BY a;
EXPLAIN QUERY PLAN SELECT a, b, count(*) FROM t GROUP BY a, b ORDER BY a DESC;
-- distinct-by-index: DISTINCT over columns an index delivers in order keeps a row when it differs from the previous one.
EXPLAIN QUERY PLAN SELECT DISTINCT a FROM t;
EXPLAIN QUERY PLAN SELECT DISTINCT a, b FROM t WHERE a > 2;
EXPLAIN QUERY PLAN SELECT DISTINCT b FROM t WHERE a = 1;
EXPLAIN QUERY PLAN SELECT DISTINCT c FROM t;
EXPLAIN QUERY PLAN SELECT DISTINCT b, a FROM t;
