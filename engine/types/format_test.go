package types

import (
	"math"
	"strconv"
	"testing"
)

// TestFormatReal_Oracle_MatchSQLite checks REAL→TEXT against SQLite on
// fixed tricky values and random doubles recorded from SQLite.
func TestFormatReal_Oracle_MatchSQLite(t *testing.T) {
	rows := readTSV(t, "testdata/oracle_real_text.tsv")
	if len(rows) < 500 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, r := range rows {
		u, err := strconv.ParseUint(r[0], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		f := math.Float64frombits(u)
		if got := FormatReal(f); got != r[1] {
			t.Errorf("FormatReal(%v) = %s, SQLite %s", f, got, r[1])
		}
	}
}

func TestFormatReal_Specials(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{math.Inf(1), "Inf"}, {math.Inf(-1), "-Inf"}, {0, "0.0"}, {math.Copysign(0, -1), "0.0"},
		{-1.5, "-1.5"}, {1e100, "1.0e+100"}, {1.5e-7, "1.5e-07"},
	}
	for _, c := range cases {
		if got := FormatReal(c.f); got != c.want {
			t.Errorf("FormatReal(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

// TestFormatReal_AllocatesOnlyTheString: the decoded digits stay on the
// stack, so a REAL made text (CAST, LIKE, ||) costs one allocation.
func TestFormatReal_AllocatesOnlyTheString(t *testing.T) {
	for _, f := range []float64{1.5, -2.25e-7, 1e300, 0} {
		if n := testing.AllocsPerRun(100, func() { formatSink = FormatReal(f) }); n != 1 {
			t.Errorf("FormatReal(%v): %v allocations, want 1", f, n)
		}
		var buf [32]byte
		if n := testing.AllocsPerRun(100, func() { _ = AppendReal(buf[:0], f) }); n != 0 {
			t.Errorf("AppendReal(%v) into room: %v allocations, want 0", f, n)
		}
	}
}

var formatSink string

func TestParseNumeric_Prefixes(t *testing.T) {
	cases := []struct {
		in    string
		want  string
		whole bool
	}{
		{"12abc", "integer 12", false}, {" 12 ", "integer 12", true}, {"1e", "integer 1", false},
		{".5", "real 0.5", true}, {"5.", "real 5.0", true}, {"-", "integer 0", false},
		{"+7", "integer 7", true}, {"0x10", "integer 0", false}, {"1e400", "real 9.0e+999", true},
		{"-9223372036854775808", "integer -9223372036854775808", true},
		{"9223372036854775808", "real 9.2233720368547758e+18", true}, {"", "integer 0", false},
		{"1e+", "integer 1", false}, {"\t\n3\r", "integer 3", true},
	}
	for _, c := range cases {
		if got := render(textToNumber(c.in)); got != c.want {
			t.Errorf("textToNumber(%q) = %s, want %s", c.in, got, c.want)
		}
		if got := LooksNumeric(c.in); got != c.whole {
			t.Errorf("LooksNumeric(%q) = %v", c.in, got)
		}
	}
}
