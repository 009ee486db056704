# Keywords SQLite allows as names are names; case does not matter.
SELECT key, status, year, action, value, type, name, data, first, last, offset, replace, plan, query, row, rows, temp FROM t

CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT, status INT, year INT, action TEXT, no INT, do INT, end INT, begin INT, match INT, like INT, filter INT, over INT)

select A, b From T wHeRe C = 1 OrDeR bY a

SELECT replace(a, 'x', 'y'), like('a', b), glob('*', c), if(1, 2, 3) FROM t

SELECT "order", "group" FROM "select" AS "from"

SELECT rowid, oid, _rowid_ FROM t

SELECT a FROM t AS key JOIN u status ON key.id = status.id

SELECT ünïcode FROM tàble

SELECT CASE WHEN end THEN begin ELSE end END FROM t ORDER BY desc DESC, first NULLS LAST, asc

CREATE TRIGGER after AFTER UPDATE OF of, for ON before FOR EACH ROW WHEN begin BEGIN UPDATE temp SET do = end; END

INSERT INTO key (do) VALUES (1) ON CONFLICT (do) DO UPDATE SET do = excluded.do

CREATE TABLE temp (view TEXT, trigger INT, match INT, type TEXT, no INT, instead INT, each INT, start INT, query INT, plan INT)

SELECT a FROM t WHERE match MATCH match AND type = "table" AND key IN (SELECT key FROM view)

SELECT "rows", "true", "current", "unbounded" FROM "recursive"
