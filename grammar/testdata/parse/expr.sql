# Expressions and SQLite's operator precedence.
SELECT a-1, a - 1, - 1, -a, +a, ~a, - -1, -(-1)

SELECT 1 + 2 * 3, (1 + 2) * 3, 1 - 2 - 3, 1 - (2 - 3), 2 * 3 % 4 / 5

SELECT a || b || c, a -> '$.x', a ->> '$.y', a || b -> c

SELECT a & b | c << 1 >> 2, a < b, a <= b, a > b, a >= b

SELECT a = b, a == b, a != b, a <> b, a IS b, a IS NOT b, a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b

SELECT a AND b OR c AND NOT d, NOT a = b, NOT NOT a, (a OR b) AND c

SELECT a LIKE 'x%', a NOT LIKE 'x' ESCAPE '\', a GLOB '*', a NOT GLOB 'b', a REGEXP 'c', a NOT MATCH 'd', a ILIKE 'E%', a NOT ILIKE 'f'

SELECT a BETWEEN 1 AND 2, a NOT BETWEEN b + 1 AND c * 2, a BETWEEN 1 AND 2 AND b

SELECT a IN (1, 2), a NOT IN (SELECT b FROM t), a IN (), a IN t, a IN main.t, a NOT IN json_each('[1]')

SELECT EXISTS (SELECT 1), NOT EXISTS (SELECT 1 FROM t WHERE x), (SELECT max(a) FROM t)

SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END, CASE a WHEN 1 THEN 'one' END

SELECT CAST(a AS INTEGER), CAST(b AS VARCHAR(10)), CAST(c AS DECIMAL(10, 2)), a::text, b::numeric(5,1), CAST(d AS DOUBLE PRECISION)

SELECT a COLLATE NOCASE, b COLLATE "binary" = c, -a COLLATE rtrim

SELECT a ISNULL, a NOTNULL, a NOT NULL, a IS NULL, a IS NOT NULL, a IS TRUE, a IS NOT FALSE

SELECT (a, b) = (1, 2), (a, b) IN (SELECT x, y FROM t), (1)

SELECT coalesce(a, b, 'c'), now(), lower("Name"), count(*), json_extract(doc, '$.a.b')

SELECT t.a, main.t.b, "quoted col", `back tick`, [brackets], "a""b"

SELECT a = 1 IS NULL, a + 1 BETWEEN 2 AND 3 = 1, NOT a BETWEEN 1 AND 2

SELECT 1 WHERE a = ? AND b = ?3 AND c = ? AND d = $1 AND e = :name AND f = @name AND g = $name

SELECT RAISE(IGNORE), RAISE(ABORT, 'bad')
