package conformance

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	_ "github.com/ladybugsql/ladybug"
	_ "modernc.org/sqlite"
)

func zzDump(t *testing.T, db *sql.DB, q string) string {
	rows, err := db.Query(q)
	if err != nil {
		return "ERR " + err.Error()
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		rows.Scan(ptrs...)
		out = append(out, fmt.Sprintf("%v", vals))
	}
	return strings.Join(out, " ")
}

func TestZZOrder(t *testing.T) {
	setup := []string{
		"CREATE TABLE o (id INTEGER PRIMARY KEY, k, v INTEGER, n TEXT)",
		"CREATE INDEX o_k ON o (k)",
		"CREATE INDEX o_kv ON o (k, v)",
		"INSERT INTO o VALUES (1, 3, 1, 'a'), (2, NULL, 2, 'b'), (3, 'x', 3, 'c'), (4, 2.5, 4, 'd'), (5, X'00', 5, 'e'), (6, 3, 0, 'f'), (7, NULL, 7, 'g'), (8, '2', 8, 'h'), (9, -1, 9, 'i'), (10, 3.0, -2, 'j')",
	}
	qs := []string{
		"SELECT id, k FROM o ORDER BY k LIMIT 20",
		"SELECT id, k FROM o ORDER BY k LIMIT 4",
		"SELECT id, k FROM o ORDER BY k LIMIT 3 OFFSET 2",
		"SELECT id, v FROM o WHERE k = 3 ORDER BY v",
		"SELECT id, k FROM o WHERE k > 2 ORDER BY k",
		"SELECT id, k FROM o WHERE k >= 3 ORDER BY k, v",
		"SELECT id FROM o WHERE id > 3 ORDER BY id LIMIT 3",
		"SELECT * FROM (SELECT id, k FROM o) WHERE id < 5 ORDER BY id",
		"SELECT a.id, b.id FROM o a JOIN o b ON a.k = b.k WHERE a.v > 0 AND b.id < 9 ORDER BY 1, 2",
		"SELECT a.id, b.id FROM o a LEFT JOIN o b ON a.k = b.v WHERE a.id > 2 AND b.id IS NULL ORDER BY 1, 2",
		"SELECT a.id, b.id FROM o a, o b WHERE a.id = b.v AND a.k = '2' ORDER BY 1",
	}
	lb, _ := sql.Open("ladybug", ":memory:")
	sq, _ := sql.Open("sqlite", ":memory:")
	lb.SetMaxOpenConns(1)
	sq.SetMaxOpenConns(1)
	for _, s := range setup {
		if _, err := lb.Exec(s); err != nil {
			t.Fatal(err)
		}
		if _, err := sq.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range qs {
		a, b := zzDump(t, lb, q), zzDump(t, sq, q)
		if a != b {
			t.Errorf("%s\n ladybug: %s\n sqlite:  %s", q, a, b)
		}
	}
}
