package gen

// column describes a column for expression generation.
type column struct {
	name string
	// noLike keeps the column from being a bare LIKE/GLOB operand: it may
	// hold a BLOB, or it is a rowid alias, where modernc's SQLite (built
	// with SQLITE_LIKE_DOESNT_MATCH_BLOBS) drops rows (DIFFERENCES.md, D1).
	noLike bool
}

// table describes a table of the fixed schema.
type table struct {
	name     string
	cols     []column
	writable bool
	// filterCols are the columns UPDATE/DELETE may filter on: none is
	// indexed except the rowid, so SQLite visits rows in rowid order.
	filterCols []string
}

func cols(names ...string) []column {
	out := make([]column, len(names))
	for i, n := range names {
		out[i] = column{name: n}
	}
	return out
}

var tables = []table{
	{name: "t1", cols: []column{{name: "a", noLike: true}, {name: "b"}, {name: "c"}, {name: "d"}, {name: "e", noLike: true}}},
	{name: "t2", cols: cols("x", "y", "z")},
	{name: "t3", cols: cols("k", "v", "w")},
	{name: "w1", cols: append([]column{{name: "id", noLike: true}}, cols("u", "n", "c", "s")...), writable: true, filterCols: []string{"id", "n", "c", "s"}},
	{name: "w2", cols: cols("p", "q", "r", "m"), writable: true, filterCols: []string{"m"}},
	{name: "w3", cols: append([]column{{name: "id", noLike: true}}, cols("pid", "note")...), writable: true, filterCols: []string{"id", "note"}},
}

// Writable lists the tables writes change; after every write all of them
// are compared, since a foreign key action on one changes another.
func Writable() []string { return []string{"w1", "w2", "w3"} }

// Schema returns the statements that create and fill the fixed schema: NULLs,
// duplicates, mixed storage classes in untyped and NUMERIC columns,
// indexes, and constraints (PRIMARY KEY, UNIQUE, NOT NULL, CHECK,
// DEFAULT, a composite key, a foreign key with actions) on the writable tables.
func Schema() []string {
	return []string{
		// SQLite's default is off, ladybug's on: the same on both sides.
		`PRAGMA foreign_keys = ON`,
		`CREATE TABLE t1(a INTEGER PRIMARY KEY, b INTEGER, c TEXT, d REAL, e)`,
		`CREATE INDEX t1_b ON t1(b)`,
		`CREATE INDEX t1_cd ON t1(c, d)`,
		`INSERT INTO t1 VALUES
			(1, 10, 'abc', 1.5, 1), (2, 20, 'ABC', -2.25, 'x'), (3, NULL, 'abd', NULL, 2.5),
			(4, 10, NULL, 3.75, x'0102'), (5, 30, '10', 0.5, NULL), (6, 20, '9', -1.5, 'abc'),
			(7, -5, 'a%c', 100.25, -3), (8, 0, '', 2.5, ''), (9, 10, 'abc', 1.5, 10),
			(10, NULL, ' x ', -0.75, '10'), (11, 7, 'Zed', NULL, 7.25), (12, 20, 'b_c', 4.5, 0)`,
		`CREATE TABLE t2(x INTEGER, y TEXT, z NUMERIC)`,
		`CREATE INDEX t2_x ON t2(x)`,
		`CREATE INDEX t2_yz ON t2(y, z)`,
		`INSERT INTO t2 VALUES
			(10, 'abc', 1), (10, 'abc', '2.5'), (NULL, 'x', NULL), (20, NULL, 'abc'), (30, 'zz', 3.0),
			(7, 'abc', -1), (10, 'abc', 1), (-5, '9', 0), (NULL, NULL, NULL), (40, 'Q', '12')`,
		`CREATE TABLE t3(k TEXT PRIMARY KEY, v INTEGER NOT NULL, w TEXT)`,
		`INSERT INTO t3 VALUES ('k1', 1, 'mno'), ('k2', 10, NULL), ('K1', 20, 'Pq'), ('k3', 10, 'rst'), ('', 0, '')`,
		`CREATE TABLE w1(id INTEGER PRIMARY KEY, u INTEGER UNIQUE, n TEXT NOT NULL,
			c INTEGER CHECK (c IS NULL OR c >= 0), s TEXT DEFAULT 'd')`,
		`INSERT INTO w1 VALUES (1, 10, 'a', 0, 's1'), (2, 20, 'b', 5, NULL), (3, NULL, 'c', NULL, 'x'), (4, 30, 'a', 7, 'y')`,
		`CREATE TABLE w2(p INTEGER, q TEXT, r REAL, m INTEGER, PRIMARY KEY (p, q))`,
		`CREATE UNIQUE INDEX w2_r ON w2(r)`,
		`INSERT INTO w2 VALUES (1, 'a', 1.5, 1), (1, 'b', NULL, 2), (2, 'a', -0.5, NULL)`,
		`CREATE TABLE w3(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES w1(id) ON DELETE CASCADE ON UPDATE SET NULL, note TEXT)`,
		`INSERT INTO w3 VALUES (1, 1, 'x'), (2, 1, 'y'), (3, 2, NULL), (4, NULL, 'z')`,
	}
}
