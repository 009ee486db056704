package main

import (
	"bytes"
	"database/sql"
	"os"
	"strings"
	"testing"

	_ "github.com/ladybugsql/ladybug" // driver "ladybug"

	. "github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
)

const recorded = "../../../../engine/types/testdata/oracle_ops.tsv"

// TestOperators_RecordedTable_IsSQLitesAnswer builds the table from SQLite
// again and requires the recorded file byte for byte: regenerate.sh leaves
// it unchanged, and every digest engine/types replays is SQLite's answer.
// Under -short and -race (SQLite is slow there) it rebuilds every seventh
// line and compares those.
func TestOperators_RecordedTable_IsSQLitesAnswer(t *testing.T) {
	db := Open()
	defer db.Close()
	rec, err := os.ReadFile(recorded)
	if err != nil {
		t.Fatal(err)
	}
	if !testing.Short() && !Race {
		var buf bytes.Buffer
		write(&buf, sqlAsker(db))
		if bytes.Equal(buf.Bytes(), rec) {
			return
		}
	}
	want := strings.Split(strings.TrimSuffix(string(rec), "\n"), "\n")
	got := table(sqlAsker(db), func(i int) bool { return i%7 == 0 || !testing.Short() && !Race })
	for i := range min(len(got), len(want)) {
		if got[i] != "" && got[i] != want[i] {
			t.Fatalf("%s line %d is %q; SQLite now gives %q (run regenerate.sh and review the diff)", recorded, i+1, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		t.Fatalf("%s has %d lines; SQLite now gives %d", recorded, len(want), len(got))
	}
}

// TestOperators_Ladybug_MatchesSQLite asks ladybug, through database/sql
// and SQL text, every question of the table — each binary operator on every
// pair of operands, each unary operator and cast on every operand — and
// compares each answer with SQLite's. A failure names the case. Under
// -short and -race it asks every seventh binary question (and every unary one).
func TestOperators_Ladybug_MatchesSQLite(t *testing.T) {
	stride := 1
	if testing.Short() || Race {
		stride = 7
	}
	sdb := Open()
	defer sdb.Close()
	ldb, err := sql.Open("ladybug", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer ldb.Close()
	ldb.SetMaxOpenConns(1)
	sqlite, ladybug := sqlAsker(sdb), sqlAsker(ldb)
	n, bad := 0, 0
	check := func(expr string, args []any, codes ...string) {
		n++
		want, got := sqlite(expr, args...), ladybug(expr, args...)
		if got == want || strings.HasPrefix(got, "ERR ") && strings.HasPrefix(want, "ERR ") {
			return
		}
		if bad++; bad <= 20 {
			t.Errorf("%s with %s: ladybug %s, SQLite %s", expr, strings.Join(codes, ", "), got, want)
		}
	}
	k := 0
	for _, op := range binaryOps {
		for _, a := range operands {
			for _, b := range rights(op) {
				if k++; k%stride == 0 {
					check(binaryExpr(op), []any{a.V, b.V}, a.Code, b.Code)
				}
			}
		}
	}
	for _, op := range unaryOps {
		for _, a := range unaryOperands {
			check(unaryExpr(op), []any{a.V}, a.Code)
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d cases differ", bad, n)
	}
}
