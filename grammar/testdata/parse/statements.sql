# Transactions, savepoints, PRAGMA, EXPLAIN, ANALYZE, VACUUM, ATTACH/DETACH,
# and scripts with several statements and comments.
BEGIN

BEGIN DEFERRED TRANSACTION

BEGIN IMMEDIATE

BEGIN EXCLUSIVE TRANSACTION

START TRANSACTION

COMMIT

COMMIT TRANSACTION

END

END TRANSACTION

ROLLBACK

ROLLBACK TRANSACTION TO SAVEPOINT sp1

ROLLBACK TO sp1

SAVEPOINT sp1

RELEASE SAVEPOINT sp1

RELEASE sp1

PRAGMA foreign_keys

PRAGMA foreign_keys = ON

PRAGMA main.journal_mode = WAL

PRAGMA cache_size = -2000

PRAGMA table_info(users)

PRAGMA table_info('users')

PRAGMA synchronous = FULL

PRAGMA user_version = 3

EXPLAIN SELECT 1

EXPLAIN QUERY PLAN SELECT * FROM t WHERE a = 1

EXPLAIN ANALYZE SELECT 1

ANALYZE

ANALYZE main.t

REINDEX

REINDEX nocase

REINDEX main.t_idx

CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize = 'porter ascii')

CREATE VIRTUAL TABLE IF NOT EXISTS main.r USING rtree(id, minx, maxx, f(g(1), 2))

VACUUM

VACUUM INTO 'backup.db'

VACUUM main INTO ?

ATTACH DATABASE 'other.db' AS other

ATTACH 'x.db' AS x

DETACH DATABASE other

DETACH x

-- a script: comments, empty statements, several lines
;; SELECT 1; /* block
comment */ SELECT 2 -- trailing
;
INSERT INTO t VALUES (1);
