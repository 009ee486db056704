package conformance

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// conflictSchema is one table shape of the conflict model test, with the
// ON CONFLICT targets that name its uniqueness constraints. Every shape has
// columns pk, a, b, c so one statement generator serves them all.
type conflictSchema struct {
	ddl     []string
	targets []string
}

// conflictSchemas cover each kind of uniqueness a write can hit: the rowid
// (INTEGER PRIMARY KEY), a non-integer PRIMARY KEY (an automatic index), a
// UNIQUE column, a multi-column UNIQUE, a UNIQUE expression index, plain
// and partial secondary indexes, constraint-level ON CONFLICT clauses,
// NOT NULL with a default (OR REPLACE substitutes it) and CHECK.
var conflictSchemas = []conflictSchema{{
	ddl: []string{
		`CREATE TABLE t(pk INTEGER PRIMARY KEY, a INTEGER UNIQUE, b CHECK (b IS NOT 4), c)`,
		`CREATE INDEX t_b ON t(b)`,
		`CREATE INDEX t_cb ON t(c, b DESC)`,
	},
	targets: []string{"(pk)", "(a)"},
}, {
	ddl: []string{
		`CREATE TABLE t(pk TEXT PRIMARY KEY, a INT, b, c NOT NULL DEFAULT 7, UNIQUE(a, b))`,
		`CREATE INDEX t_c ON t(c)`,
	},
	targets: []string{"(pk)", "(a, b)", "(b, a)"},
}, {
	ddl: []string{
		`CREATE TABLE t(pk INTEGER PRIMARY KEY ON CONFLICT REPLACE, a UNIQUE ON CONFLICT IGNORE, b UNIQUE, c)`,
		`CREATE INDEX t_p ON t(c) WHERE c > 1`,
		`CREATE INDEX t_ab ON t(a, b)`,
	},
	targets: []string{"(pk)", "(a)", "(b)"},
}, {
	ddl: []string{
		`CREATE TABLE t(pk INTEGER PRIMARY KEY, a, b, c)`,
		`CREATE UNIQUE INDEX t_ab ON t(a, b)`,
		`CREATE UNIQUE INDEX t_e ON t(c % 3)`,
		`CREATE INDEX t_bp ON t(b) WHERE a IS NOT NULL`,
	},
	targets: []string{"(pk)", "(a, b)"},
}, {
	ddl: []string{
		`CREATE TABLE t(pk INT, a UNIQUE ON CONFLICT REPLACE, b NOT NULL ON CONFLICT REPLACE DEFAULT 0, c, PRIMARY KEY(pk, c) ON CONFLICT FAIL)`,
		`CREATE INDEX t_b ON t(b, a)`,
	},
	targets: []string{"(pk, c)", "(a)"},
}, {
	// Triggers see every row written, and a child table follows by
	// foreign key: the log and the children are compared too.
	ddl: []string{
		`PRAGMA foreign_keys = ON`,
		`CREATE TABLE t(pk INTEGER PRIMARY KEY, a UNIQUE, b, c)`,
		`CREATE INDEX t_b ON t(b)`,
		`CREATE TABLE log(n INTEGER PRIMARY KEY, what, pk, a, b, c)`,
		`CREATE TRIGGER t_ai AFTER INSERT ON t BEGIN INSERT INTO log(what, pk, a, b, c) VALUES ('i', new.pk, new.a, new.b, new.c); END`,
		`CREATE TRIGGER t_au AFTER UPDATE ON t BEGIN INSERT INTO log(what, pk, a, b, c) VALUES ('u', new.pk, new.a, new.b, new.c); END`,
		`CREATE TRIGGER t_bu BEFORE UPDATE OF c ON t WHEN new.c = 4 BEGIN UPDATE t SET b = coalesce(b, 0) + 10 WHERE pk = old.pk; END`,
		`CREATE TABLE child(id INTEGER PRIMARY KEY, ta REFERENCES t(a) ON DELETE CASCADE ON UPDATE CASCADE)`,
		`CREATE TRIGGER t_child AFTER INSERT ON t WHEN new.a IS NOT NULL BEGIN INSERT INTO child(ta) VALUES (new.a); END`,
	},
	targets: []string{"(pk)", "(a)"},
}}

var conflictOrs = []string{"", " OR REPLACE", " OR IGNORE", " OR ABORT", " OR FAIL", " OR ROLLBACK"}

// conflictGen writes random statements over a tiny value domain, so most
// writes collide with a key another row holds.
type conflictGen struct {
	r      *rand.Rand
	schema conflictSchema
	inTx   bool
}

func (g *conflictGen) val() string {
	if g.r.IntN(8) == 0 {
		return "NULL"
	}
	return strconv.Itoa(g.r.IntN(6))
}

func (g *conflictGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *conflictGen) row() string {
	return fmt.Sprintf("(%s, %s, %s, %s)", g.val(), g.val(), g.val(), g.val())
}

func (g *conflictGen) rows() string {
	parts := make([]string, 1+g.r.IntN(3))
	for i := range parts {
		parts[i] = g.row()
	}
	return strings.Join(parts, ", ")
}

func (g *conflictGen) col() string { return g.pick("pk", "a", "b", "c") }

// expr is a new value for a column: a constant, another column, or one
// computed from the row (so several rows get the same or shifted keys).
func (g *conflictGen) expr() string {
	switch g.r.IntN(6) {
	case 0:
		return g.val()
	case 1:
		return g.col()
	case 2:
		return g.col() + " + 1"
	case 3:
		return g.col() + " - 1"
	case 4:
		return "(" + g.col() + " * 2) % 5"
	}
	return "coalesce(" + g.col() + ", 0) + " + strconv.Itoa(g.r.IntN(3))
}

func (g *conflictGen) where() string {
	switch g.r.IntN(4) {
	case 0:
		return ""
	case 1:
		return " WHERE " + g.col() + " > " + strconv.Itoa(g.r.IntN(5))
	case 2:
		return " WHERE " + g.col() + " = " + g.val()
	}
	return " WHERE " + g.col() + " IS NOT NULL"
}

func (g *conflictGen) upsertAction() string {
	if g.r.IntN(4) == 0 {
		return "DO NOTHING"
	}
	sets := []string{g.col() + " = " + g.pick("excluded.", "") + g.col()}
	if g.r.IntN(2) == 0 {
		sets = append(sets, g.col()+" = "+g.expr())
	}
	s := "DO UPDATE SET " + strings.Join(sets, ", ")
	if g.r.IntN(3) == 0 {
		// excluded.x + 0: how a comparison applies excluded.x's affinity
		// is another question than conflict handling (see issue 15, item 7).
		s += " WHERE " + g.pick("excluded.", "t.") + g.col() + " + 0 <> " + g.val()
	}
	return s
}

func (g *conflictGen) upsert() string {
	s := " ON CONFLICT" + g.schema.targets[g.r.IntN(len(g.schema.targets))] + " " + g.upsertAction()
	if g.r.IntN(3) == 0 {
		s += " ON CONFLICT " + g.pick("DO NOTHING", "DO UPDATE SET "+g.col()+" = "+g.expr())
	}
	return s
}

func (g *conflictGen) next() string {
	or := conflictOrs[g.r.IntN(len(conflictOrs))]
	switch n := g.r.IntN(100); {
	case n < 30:
		return "INSERT" + or + " INTO t(pk, a, b, c) VALUES " + g.rows()
	case n < 35:
		return "REPLACE INTO t(pk, a, b, c) VALUES " + g.rows()
	case n < 42:
		return "INSERT" + or + " INTO t(pk, a, b, c) SELECT " + g.expr() + ", " + g.expr() + ", " + g.expr() + ", " + g.expr() + " FROM t" + g.where() + " ORDER BY rowid"
	case n < 70:
		set := g.col() + " = " + g.expr()
		if g.r.IntN(3) == 0 {
			set += ", " + g.col() + " = " + g.expr()
		}
		// Which rows an OR FAIL keeps, an IGNORE skips, or a unique key
		// collides with first depends on the order rows are updated in,
		// which SQLite takes from the index its planner picks when the
		// update changes no key of it (a partial index whose condition the
		// WHERE implies included): NOT INDEXED and a unary + keep both
		// engines on the table, in rowid order.
		where := strings.Replace(g.where(), "WHERE ", "WHERE +", 1)
		return "UPDATE" + or + " t NOT INDEXED SET " + set + where
	case n < 88:
		return "INSERT INTO t(pk, a, b, c) VALUES " + g.rows() + g.upsert()
	case n < 93:
		return "DELETE FROM t" + g.where()
	}
	if g.inTx {
		g.inTx = false
		return g.pick("COMMIT", "ROLLBACK")
	}
	g.inTx = true
	return "BEGIN"
}

// conflictState is what the model test compares after each statement: the
// table's rows (and, where the schema has them, the trigger log and the
// children a foreign key keeps in step).
const conflictState = `SELECT rowid, pk, a, b, c FROM t ORDER BY rowid`

var conflictExtra = []string{`SELECT * FROM log ORDER BY n`, `SELECT * FROM child ORDER BY id`}

// TestConflict_EveryResolution_MatchesSQLite runs random writes that hit
// every conflict path (OR REPLACE/IGNORE/ABORT/FAIL/ROLLBACK and the
// constraints' own clauses, × INSERT, INSERT … SELECT, UPDATE and upserts,
// × rowid, PRIMARY KEY, UNIQUE and expression or partial indexes) on
// ladybug and SQLite, and after each statement compares the outcome (error
// or not, rows changed), the table's rows, and PRAGMA integrity_check,
// which in ladybug recomputes every row's key in every index. With
// LADYBUG_STRESS=1 it runs 20 times as many workloads;
// LADYBUG_CONFLICT_SEED=n starts at workload n instead of 0.
func TestConflict_EveryResolution_MatchesSQLite(t *testing.T) {
	workloads, steps := 60, 40
	if os.Getenv("LADYBUG_STRESS") != "" {
		workloads *= 20
	}
	base, _ := strconv.Atoi(os.Getenv("LADYBUG_CONFLICT_SEED"))
	for w := base; w < base+workloads; w++ {
		seed := uint64(w)
		schema := conflictSchemas[w%len(conflictSchemas)]
		runConflictWorkload(t, seed, schema, steps)
		if t.Failed() {
			return
		}
	}
}

func runConflictWorkload(t *testing.T, seed uint64, schema conflictSchema, steps int) {
	t.Helper()
	oracle, lb := OpenTarget(EngineSQLite), OpenTarget(EngineLadybug)
	defer oracle.Close()
	defer lb.Close()
	for _, s := range schema.ddl {
		_, err := oracle.Exec(s)
		require.NoError(t, err, s)
		_, err = lb.Exec(s)
		require.NoError(t, err, s)
	}
	g := &conflictGen{r: rand.New(rand.NewPCG(seed, 15)), schema: schema}
	var hist []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d, schema %q: %s\nstatements:\n%s", seed, strings.Join(schema.ddl, ";\n"), fmt.Sprintf(format, args...), strings.Join(hist, ";\n"))
	}
	for i := 0; i < steps; i++ {
		s := g.next()
		hist = append(hist, s)
		na, ea := oracle.Exec(s)
		nb, eb := lb.Exec(s)
		if d := compareOutcome(ea, eb); d != "" {
			fail("%s", d)
		}
		if ea != nil && conflictKind(ea) != conflictKind(eb) {
			fail("errors differ: %v vs %v", ea, eb)
		}
		if ea == nil && na != nb && strings.HasPrefix(s, "INSERT") || strings.HasPrefix(s, "UPDATE") && ea == nil && na != nb {
			fail("rows affected: SQLite %d, ladybug %d", na, nb)
		}
		qs := []string{conflictState, `PRAGMA integrity_check`}
		if strings.Contains(strings.Join(schema.ddl, ";"), "TRIGGER") {
			qs = append(qs, conflictExtra...)
		}
		for _, q := range qs {
			ra, err := oracle.Query(q)
			require.NoError(t, err, q)
			rb, err := lb.Query(q)
			if err != nil {
				fail("%s: %v", q, err)
			}
			if d := compareRows(ra, rb, true, canonValue); d != "" {
				fail("%s: %s", q, d)
			}
		}
	}
}

// conflictKind is an error's message without the engines' decorations
// (ladybug's "ladybug: " prefix, SQLite's class prefix and " (NNN)" code
// suffix).
func conflictKind(err error) string {
	msg := strings.TrimPrefix(FirstLine(err), "ladybug: ")
	for _, p := range []string{"constraint failed: ", "SQL logic error: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i]
	}
	return msg
}
