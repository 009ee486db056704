UPDATE t SET a = 1

UPDATE OR IGNORE main.t AS x SET a = a + 1, b = DEFAULT_VALUE WHERE id = ? RETURNING *

UPDATE t SET (a, b) = (1, 2), c = (SELECT max(c) FROM u) WHERE id IN (1, 2)

UPDATE inventory SET qty = qty - s.n FROM (SELECT item, sum(n) AS n FROM sales GROUP BY item) AS s WHERE inventory.item = s.item

UPDATE t INDEXED BY idx SET a = 1

DELETE FROM t

DELETE FROM main.t AS x WHERE x.id = 1 RETURNING id

WITH old AS (SELECT id FROM t WHERE ts < 5) DELETE FROM t WHERE id IN old
