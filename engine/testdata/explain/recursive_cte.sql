-- A recursive CTE lists its setup and recursive terms; a term reads the
-- one queued row, so a join from it to a table probes the table's key.
CREATE TABLE chain (id INTEGER PRIMARY KEY, v TEXT);
EXPLAIN QUERY PLAN WITH RECURSIVE c(id) AS (SELECT 1 UNION ALL SELECT chain.id FROM chain JOIN c ON chain.id = c.id + 1) SELECT count(*) FROM c;
EXPLAIN QUERY PLAN WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 9 UNION ALL SELECT x * 10 FROM c WHERE x < 3 ORDER BY 1 DESC LIMIT 20) SELECT x FROM c;
