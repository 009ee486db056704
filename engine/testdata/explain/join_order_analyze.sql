-- join-order and index-join with ANALYZE statistics: the real table sizes order the chain and pick index probes.
CREATE TABLE big (id INTEGER PRIMARY KEY, mid_id INTEGER, v INTEGER);
CREATE TABLE mid (id INTEGER PRIMARY KEY, small_id INTEGER, w INTEGER);
CREATE TABLE small (id INTEGER PRIMARY KEY, name TEXT);
CREATE INDEX big_mid ON big (mid_id);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO big SELECT i, i % 200, i FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO mid SELECT i, i % 5, i FROM n;
INSERT INTO small VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e');
ANALYZE;
EXPLAIN QUERY PLAN SELECT big.v, mid.w, small.name FROM big JOIN mid ON mid.id = big.mid_id JOIN small ON small.id = mid.small_id;
EXPLAIN QUERY PLAN SELECT small.name, count(*) FROM small JOIN mid ON mid.small_id = small.id JOIN big ON big.mid_id = mid.id GROUP BY small.name;
EXPLAIN QUERY PLAN SELECT name FROM small WHERE EXISTS (SELECT 1 FROM mid WHERE mid.small_id = small.id);
EXPLAIN QUERY PLAN SELECT mid.w FROM mid WHERE NOT EXISTS (SELECT 1 FROM big WHERE big.mid_id = mid.id);
