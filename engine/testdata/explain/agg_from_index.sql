-- count-from-tree: count(*) over a whole table counts the cells of its smallest index (or the table tree); min-max-from-index: a lone min/max reads one index entry.
CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);
CREATE TABLE bare (x, y);
CREATE INDEX t_ab ON t (a, b);
CREATE INDEX t_a ON t (a);
CREATE INDEX t_c_desc ON t (c DESC);
CREATE INDEX t_b_part ON t (b) WHERE b IS NOT NULL;
CREATE TABLE wr (k TEXT PRIMARY KEY, v) WITHOUT ROWID;

EXPLAIN QUERY PLAN SELECT count(*) FROM t;
EXPLAIN QUERY PLAN SELECT count(*) FROM bare;
EXPLAIN QUERY PLAN SELECT count(*) FROM wr;
EXPLAIN QUERY PLAN SELECT count(*) FROM t WHERE a > 3;
EXPLAIN QUERY PLAN SELECT count(a) FROM t;
EXPLAIN QUERY PLAN SELECT min(a) FROM t;
EXPLAIN QUERY PLAN SELECT max(a) FROM t;
EXPLAIN QUERY PLAN SELECT max(b) FROM t WHERE a = 5;
EXPLAIN QUERY PLAN SELECT max(c) FROM t;
EXPLAIN QUERY PLAN SELECT min(b) FROM t;
EXPLAIN QUERY PLAN SELECT min(a), max(a) FROM t;
EXPLAIN QUERY PLAN SELECT max(a) + 1 FROM t;
