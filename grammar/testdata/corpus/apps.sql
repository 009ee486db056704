# Statements typical Go programs send: migration tools, job queues, key
# value stores, sessions, reports.
CREATE TABLE IF NOT EXISTS goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')))

SELECT version_id, is_applied from goose_db_version ORDER BY id DESC

INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, ?)

CREATE TABLE IF NOT EXISTS schema_migrations (version uint64, dirty bool)

CREATE UNIQUE INDEX IF NOT EXISTS version_unique ON schema_migrations (version)

DELETE FROM schema_migrations

PRAGMA journal_mode=WAL

PRAGMA busy_timeout = 5000

PRAGMA synchronous = NORMAL

PRAGMA table_info(users)

PRAGMA index_list('users')

SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name

SELECT name, type FROM pragma_table_info('users') ORDER BY cid

CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_at INTEGER) WITHOUT ROWID

INSERT INTO kv (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at

SELECT value FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > unixepoch())

CREATE TABLE IF NOT EXISTS sessions (token TEXT PRIMARY KEY, data BLOB NOT NULL, expiry REAL NOT NULL)

CREATE INDEX IF NOT EXISTS sessions_expiry_idx ON sessions(expiry)

SELECT data FROM sessions WHERE token = $1 AND julianday('now') < expiry

REPLACE INTO sessions (token, data, expiry) VALUES ($1, $2, julianday($3))

CREATE TABLE jobs (id BIGSERIAL PRIMARY KEY, queue VARCHAR(64) NOT NULL DEFAULT 'default', payload JSONB, status VARCHAR(16) NOT NULL DEFAULT 'pending', attempts INT NOT NULL DEFAULT 0, run_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), created_at TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP)

UPDATE jobs SET status = 'running', attempts = attempts + 1 WHERE id = (SELECT id FROM jobs WHERE status = 'pending' AND run_at <= ? ORDER BY run_at LIMIT 1) RETURNING id, payload

DELETE FROM jobs WHERE status = 'done' AND created_at < datetime('now', '-7 days')

CREATE TABLE accounts (id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY, email TEXT NOT NULL UNIQUE, balance NUMERIC(12, 2) NOT NULL DEFAULT 0 CHECK (balance >= 0), is_admin BOOLEAN NOT NULL DEFAULT FALSE)

ALTER TABLE accounts ALTER COLUMN balance TYPE NUMERIC(14, 2)

SELECT id, email FROM accounts WHERE email ILIKE $1 LIMIT $2 OFFSET $3

SELECT date(created_at) AS day, count(*) AS n, sum(amount) AS total FROM orders WHERE created_at >= date('now', '-30 days') GROUP BY day ORDER BY day

SELECT o.id, o.total, c.name FROM orders o INNER JOIN customers c ON c.id = o.customer_id WHERE o.status IN ('paid', 'shipped') AND o.total::numeric > 100 ORDER BY o.created_at DESC NULLS LAST LIMIT 50

WITH monthly AS (
    SELECT strftime('%Y-%m', created_at) AS month,
           customer_id,
           sum(total) AS spent
    FROM orders
    WHERE status <> 'cancelled'
    GROUP BY 1, 2
), ranked AS (
    SELECT month, customer_id, spent,
           rank() OVER (PARTITION BY month ORDER BY spent DESC) AS rnk,
           sum(spent) OVER (PARTITION BY customer_id ORDER BY month
                            ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS rolling,
           lag(spent, 1, 0) OVER w AS previous
    FROM monthly
    WINDOW w AS (PARTITION BY customer_id ORDER BY month)
)
SELECT month, customer_id, spent, rolling, spent - previous AS delta
FROM ranked
WHERE rnk <= 10
ORDER BY month DESC, rnk
LIMIT 100

SELECT json_extract(doc, '$.name') AS name, doc ->> '$.age' AS age FROM people WHERE json_type(doc, '$.tags') = 'array'

SELECT p.id, t.value AS tag FROM posts p, json_each(p.tags) t WHERE t.value = ?

SELECT * FROM events WHERE (user_id, created_at) > (?, ?) ORDER BY user_id, created_at LIMIT 100

SELECT count(*) FILTER (WHERE status = 'open') AS open, count(*) FILTER (WHERE status = 'closed') AS closed FROM tickets

SELECT string_agg(name, ', ') FROM tags WHERE post_id = ?

SELECT group_concat(DISTINCT tag) FROM tags

SELECT CASE WHEN count(*) > 0 THEN 1 ELSE 0 END FROM users WHERE email = ? COLLATE NOCASE

SELECT EXISTS(SELECT 1 FROM users WHERE id = ?)

BEGIN IMMEDIATE

COMMIT

SELECT * FROM t1 WHERE a = 1 UNION ALL SELECT * FROM t2 WHERE b = 2 ORDER BY 1

WITH RECURSIVE tree(id, parent_id, depth) AS (SELECT id, parent_id, 0 FROM nodes WHERE parent_id IS NULL UNION ALL SELECT n.id, n.parent_id, tree.depth + 1 FROM nodes n JOIN tree ON n.parent_id = tree.id) SELECT * FROM tree ORDER BY depth

CREATE TRIGGER IF NOT EXISTS users_updated AFTER UPDATE ON users FOR EACH ROW BEGIN UPDATE users SET updated_at = CURRENT_TIMESTAMP WHERE id = NEW.id; END

CREATE VIEW IF NOT EXISTS active_users AS SELECT * FROM users WHERE deleted_at IS NULL
