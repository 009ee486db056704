-- index-lookup with a prefix LIKE or GLOB: LIKE (case-insensitive) on a NOCASE index, GLOB on a BINARY one, both on TEXT columns; the pattern's literal prefix bounds the scan and the predicate stays as a filter.
CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE, code TEXT, n INTEGER, b BLOB);
CREATE INDEX t_name ON t (name);
CREATE INDEX t_code ON t (code);
CREATE INDEX t_n ON t (n);
CREATE INDEX t_b ON t (b);

EXPLAIN QUERY PLAN SELECT * FROM t WHERE name LIKE 'ab%';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE name LIKE ?;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE name LIKE '%ab';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE name LIKE 'a!%%' ESCAPE '!';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE code LIKE 'ab%';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE code GLOB 'ab*';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE name GLOB 'ab*';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE n LIKE '1%';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE b GLOB 'a*';
EXPLAIN QUERY PLAN SELECT * FROM t WHERE name NOT LIKE 'ab%';
