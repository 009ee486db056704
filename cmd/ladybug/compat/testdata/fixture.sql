-- A database that uses every type and constraint the dumps map.
CREATE TABLE customers(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  email TEXT UNIQUE,
  active BOOLEAN NOT NULL DEFAULT 1,
  born DATE,
  created TIMESTAMP,
  balance REAL CHECK (balance >= -1000),
  photo BLOB,
  score NUMERIC(10,2),
  big INTEGER
);
CREATE TABLE orders(
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  amount REAL NOT NULL,
  qty INTEGER DEFAULT 1,
  note VARCHAR(200),
  total REAL GENERATED ALWAYS AS (amount * qty) STORED
);
CREATE TABLE tags(
  order_id INTEGER REFERENCES orders(id),
  tag TEXT,
  PRIMARY KEY (order_id, tag)
) WITHOUT ROWID;
CREATE INDEX orders_customer ON orders(customer_id);
CREATE UNIQUE INDEX customers_name_born ON customers(name, born);
CREATE INDEX orders_big ON orders(amount) WHERE amount > 100;
CREATE VIEW customer_totals AS
  SELECT c.name, count(o.id) AS n, sum(o.amount) AS total
  FROM customers c LEFT JOIN orders o ON o.customer_id = c.id
  GROUP BY c.name;
INSERT INTO customers(name, email, active, born, created, balance, photo, score, big) VALUES
  ('Ann', 'ann@example.com', 1, '1990-05-17', '2026-01-02 03:04:05', 12.5, x'00FF10', 12.5, 9223372036854775807),
  ('Bo "the" O''Brien', NULL, 0, '1985-12-31', '2025-06-30 23:59:59', -999.25, NULL, 0.1, -9223372036854775808),
  ('Zoë 日本 ✓', 'zoe@example.com', 1, NULL, NULL, 0.1, x'5C6E', NULL, 0),
  ('tab	and
newline \ backslash', 'x@y', 1, '2000-02-29', '2000-02-29 12:00:00', 1e-300, x'', 99999999.99, 42),
  ('gone', NULL, 1, NULL, NULL, NULL, NULL, NULL, NULL);
DELETE FROM customers WHERE name = 'gone';
INSERT INTO orders(id, customer_id, amount, qty, note) VALUES
  (1, 1, 10.25, 2, 'first'),
  (2, 1, 250, 1, NULL),
  (3, 2, 0.5, 10, 'it''s'),
  (7, 3, 1.5e10, 3, '日本');
INSERT INTO tags VALUES (1, 'red'), (1, 'blue'), (3, 'red'), (7, 'green');
CREATE TRIGGER orders_cleanup AFTER DELETE ON orders BEGIN
  DELETE FROM tags WHERE order_id = old.id;
END;
