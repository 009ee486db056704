-- fold-constants: expressions that read no row, parameter or session state are evaluated once at plan time, so `x = 1+1` seeks an index; random(), changes() and the clock never fold.
CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER, s TEXT);
CREATE INDEX t_x ON t (x);
CREATE INDEX t_s ON t (s);

EXPLAIN QUERY PLAN SELECT * FROM t WHERE x = 1 + 1;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE x = abs(-2) * 3;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE s = upper('ab') || 'c';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE x > length('abc') AND x < 10 - 1;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE x = random();
EXPLAIN QUERY PLAN SELECT * FROM t WHERE x = changes();
EXPLAIN QUERY PLAN SELECT * FROM t WHERE s = CURRENT_TIMESTAMP;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE x = ? + 1;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE id = 2 + 3;
