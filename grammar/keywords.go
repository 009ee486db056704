package grammar

import "strings"

// reservedWords are the keywords that can never be a bare name. The lexer
// gives them the Keyword token type, so a grammar rule that wants a name
// (Ident) cannot swallow them. Every other keyword is lexed as an Ident and
// matched by spelling, which is what lets "key", "action" or "status" be
// names, as SQLite allows.
var reservedWords = wordSet(`ALL ALTER AND AS AUTOINCREMENT BETWEEN CASE CHECK
COLLATE COMMIT CONSTRAINT CREATE CROSS CURRENT_DATE CURRENT_TIME
CURRENT_TIMESTAMP DEFAULT DEFERRABLE DELETE DISTINCT DROP ELSE ESCAPE EXCEPT
EXISTS FOREIGN FROM FULL GROUP HAVING IN INDEX INDEXED INNER INSERT INTERSECT
INTO IS ISNULL JOIN LEFT LIMIT NATURAL NOT NOTNULL NULL ON OR ORDER OUTER
PRIMARY REFERENCES RETURNING RIGHT ROLLBACK SELECT SET TABLE THEN TO
TRANSACTION UNION UNIQUE UPDATE USING VALUES WHEN WHERE WINDOW`)

// softWords are keywords lexed as names. The printer quotes them anyway, so
// that printed SQL never depends on a word being read as a name.
var softWords = wordSet(`ABORT ACTION ADD AFTER ALWAYS ANALYZE ASC ATTACH
BEFORE BEGIN BY CASCADE CAST COLUMN CONFLICT CURRENT DATA DATABASE DEFERRED
DESC DETACH DO EACH END EXCLUDE EXCLUSIVE EXPLAIN FAIL FALSE FETCH
FILTER FIRST FOLLOWING FOR GENERATED GLOB GROUPS IDENTITY IF IGNORE ILIKE
IMMEDIATE INITIALLY INSTEAD KEY LAST LIKE MATCH MATERIALIZED NEXT NO NOTHING
NULLS OF OFFSET ONLY OTHERS OVER PARTITION PLAN PRAGMA PRECEDING QUERY RAISE
RANGE RECURSIVE REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT ROW ROWS
SAVEPOINT START STORED STRICT TEMP TEMPORARY TIES TRIGGER TRUE TYPE UNBOUNDED
VACUUM VIEW VIRTUAL WITH WITHOUT`)

// bareWords are keywords common as column and table names that the
// grammar never misreads where a name is printed, so the printer leaves
// them unquoted.
var bareWords = wordSet(`ACTION AFTER ASC BEFORE BEGIN DATA DESC DO EACH END
FIRST FOR INSTEAD KEY LAST MATCH NO OF PLAN QUERY REPLACE START TEMP TRIGGER
TYPE VIEW`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// IsReserved reports whether word (any case) is a keyword that must be
// quoted to be used as a name.
func IsReserved(word string) bool { return reservedWords[strings.ToUpper(word)] }

// needsQuotes reports whether a plain word must be quoted to be read as a
// name wherever the printer writes one.
func needsQuotes(word string) bool {
	u := strings.ToUpper(word)
	return reservedWords[u] || softWords[u] && !bareWords[u]
}
