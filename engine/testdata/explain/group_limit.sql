-- group-limit: a GROUP BY under a LIMIT (through projections and HAVING) whose groups come in key order streams them, so the scan stops after the groups the LIMIT takes; a hashing GROUP BY over a full scan switches to an index of exactly its keys when it covers the query or the constant LIMIT is small against the groups.
CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b REAL, c TEXT, d TEXT COLLATE NOCASE);
CREATE INDEX t_a ON t (a);
CREATE INDEX t_ac ON t (a, c);
CREATE INDEX t_d ON t (d);
EXPLAIN QUERY PLAN SELECT a, count(*) FROM t GROUP BY a LIMIT 3;
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a LIMIT 3;
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a ORDER BY a LIMIT 3 OFFSET 2;
EXPLAIN QUERY PLAN SELECT a, group_concat(c) FROM t GROUP BY a HAVING count(*) > 1 LIMIT 3;
EXPLAIN QUERY PLAN SELECT a, c, count(*) FROM t WHERE a > 5 GROUP BY a, c LIMIT 3;
EXPLAIN QUERY PLAN SELECT id, count(*) FROM t GROUP BY id LIMIT 3;
-- kept hashing (or sorting): a LIMIT too large or a parameter with an uncovered query, an ORDER BY the groups do not give, a NOCASE key
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a LIMIT 100000;
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a LIMIT ?;
EXPLAIN QUERY PLAN SELECT a, sum(b) AS s FROM t GROUP BY a ORDER BY s LIMIT 3;
EXPLAIN QUERY PLAN SELECT d, count(*) FROM t GROUP BY d LIMIT 3;
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a;
-- after ANALYZE the index's distinct keys decide: 20 groups are too few for LIMIT 3 through the table rows, a covering read still streams
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t (a, b, c) SELECT i % 20, i, 'v' FROM n;
ANALYZE;
EXPLAIN QUERY PLAN SELECT a, sum(b) FROM t GROUP BY a LIMIT 3;
EXPLAIN QUERY PLAN SELECT a, count(*) FROM t GROUP BY a LIMIT 3;
-- ORDER BY the group keys descending: the index is read backward and the groups stream
CREATE TABLE q (id INTEGER PRIMARY KEY, day INTEGER, amount REAL, note TEXT COLLATE NOCASE);
CREATE INDEX q_day ON q (day);
CREATE INDEX q_note ON q (note);
EXPLAIN QUERY PLAN SELECT day, count(*) FROM q GROUP BY day ORDER BY day DESC LIMIT 7;
EXPLAIN QUERY PLAN SELECT day, sum(amount) FROM q GROUP BY day ORDER BY day DESC LIMIT 7;
EXPLAIN QUERY PLAN SELECT day, sum(amount) FROM q WHERE day > 100 GROUP BY day ORDER BY day DESC LIMIT 7;
EXPLAIN QUERY PLAN SELECT id, count(*) FROM q GROUP BY id ORDER BY id DESC LIMIT 2;
EXPLAIN QUERY PLAN SELECT note, count(*) FROM q GROUP BY note ORDER BY note DESC LIMIT 2;
EXPLAIN QUERY PLAN SELECT day, count(*) FROM q GROUP BY day HAVING count(*) > 2 ORDER BY day DESC LIMIT 7;
-- kept sorting: NULLS FIRST against the backward read, another collation than the group's
EXPLAIN QUERY PLAN SELECT day, count(*) FROM q GROUP BY day ORDER BY day DESC NULLS FIRST LIMIT 7;
EXPLAIN QUERY PLAN SELECT note, count(*) FROM q GROUP BY note ORDER BY note COLLATE BINARY DESC LIMIT 2;
