-- covering-index: an index scan whose query reads only index key columns (and the rowid) reads no table row; the covering index wins a tie.
CREATE TABLE r (id INTEGER PRIMARY KEY, k INTEGER NOT NULL, val INTEGER NOT NULL, t TEXT COLLATE NOCASE);
CREATE INDEX r_k ON r (k);
CREATE INDEX r_kv ON r (k, val);
CREATE INDEX r_t ON r (t);

EXPLAIN QUERY PLAN SELECT count(*), sum(val) FROM r WHERE k >= ? AND k < ?;
EXPLAIN QUERY PLAN SELECT id, k FROM r WHERE k = 5;
EXPLAIN QUERY PLAN SELECT k, val, t FROM r WHERE k = 5;
EXPLAIN QUERY PLAN SELECT t FROM r WHERE t = 'abc';
EXPLAIN QUERY PLAN SELECT k FROM r WHERE k > 3 AND val = 2;
EXPLAIN QUERY PLAN SELECT val FROM r WHERE k = 1 ORDER BY val;
