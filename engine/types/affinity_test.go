package types

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

func readTSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

func quoteOnly(v Value) string {
	_, q, _ := strings.Cut(render(v), " ")
	return q
}

// TestAffinity_Oracle_MatchSQLite replays storing values in declared
// columns, and comparing such columns, as recorded from SQLite.
func TestAffinity_Oracle_MatchSQLite(t *testing.T) {
	rows := readTSV(t, "testdata/oracle_affinity.tsv")
	if len(rows) < 3000 {
		t.Fatalf("only %d rows", len(rows))
	}
	bad := 0
	for _, r := range rows {
		var got, want string
		switch r[0] {
		case "store":
			got, want = render(ParseColumnType(r[1]).Store(lit(t, r[2]))), r[3]
		case "cmp":
			got, want = affinityCompare(t, r[1], r[2], r[3], r[4]), r[5]
		}
		if got != want {
			bad++
			if bad < 30 {
				t.Errorf("%v: got %s", r, got)
			}
		}
	}
}

// affinityCompare evaluates (a<b), (a=b), (b>a) for a column a of type da
// and b a column of type db or, when db is "?", a bound parameter.
func affinityCompare(t *testing.T, da, db, a, b string) string {
	ta := ParseColumnType(da)
	va := ta.Store(lit(t, a))
	vb := lit(t, b)
	bAff := AffinityNone
	if db != "?" {
		tb := ParseColumnType(db)
		vb, bAff = tb.Store(vb), tb.Affinity
	}
	aff := CompareAffinity(ta.Affinity, bAff)
	va, vb = aff.ApplyCompare(va), aff.ApplyCompare(vb)
	lt := cmpResult(va, vb, CollBinary, func(c int) bool { return c < 0 })
	eq := cmpResult(va, vb, CollBinary, func(c int) bool { return c == 0 })
	gt := cmpResult(vb, va, CollBinary, func(c int) bool { return c > 0 })
	return quoteOnly(lt) + " " + quoteOnly(eq) + " " + quoteOnly(gt)
}

func TestAffinityOf_DeclaredNames(t *testing.T) {
	cases := map[string]Affinity{
		"INTEGER": AffinityInteger, "int8": AffinityInteger, "FLOATING POINT": AffinityInteger,
		"CHARINT": AffinityInteger, "VARCHAR(10)": AffinityText, "clob": AffinityText,
		"TEXT": AffinityText, "BLOB": AffinityBlob, "": AffinityBlob, "REAL": AffinityReal,
		"DOUBLE PRECISION": AffinityReal, "FLOAT": AffinityReal, "NUMERIC": AffinityNumeric,
		"DECIMAL(10,5)": AffinityNumeric, "BOOLEAN": AffinityNumeric, "DATETIME": AffinityNumeric,
		"STRING": AffinityNumeric,
	}
	for decl, want := range cases {
		if got := AffinityOf(decl); got != want {
			t.Errorf("AffinityOf(%q) = %v, want %v", decl, got, want)
		}
	}
	if CastAffinity("") != AffinityNumeric || CastAffinity("BLOB") != AffinityBlob {
		t.Error("CastAffinity of empty/BLOB")
	}
}

func TestColumnType_Store_GoClasses(t *testing.T) {
	b := ParseColumnType("BOOLEAN")
	if b.Class != ClassBool {
		t.Fatal("BOOLEAN class")
	}
	for in, want := range map[string]string{"true": "integer 1", "FALSE": "integer 0", "1": "integer 1", "yes": "text 'yes'"} {
		if got := render(b.Store(NewText(in))); got != want {
			t.Errorf("BOOLEAN store %q = %s, want %s", in, got, want)
		}
	}
	for _, d := range []string{"DATE", "datetime", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "timestamptz"} {
		if ClassOf(d) != ClassTime {
			t.Errorf("ClassOf(%q) not time", d)
		}
	}
	if ClassOf("DATETIMEX") != ClassPlain || ClassOf("INTEGER") != ClassPlain {
		t.Error("plain classes")
	}
}
