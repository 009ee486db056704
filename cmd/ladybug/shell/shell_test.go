package shell

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newMemShell(t *testing.T) (*Shell, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := New(&out, &errOut)
	require.NoError(t, s.Open(":memory:", false))
	t.Cleanup(func() { s.Close() })
	return s, &out, &errOut
}

func TestShell_Timer_PrintsRunTime(t *testing.T) {
	s, out, _ := newMemShell(t)
	s.Run(strings.NewReader(".timer on\nSELECT 1;\n"), "")
	assert.Regexp(t, regexp.MustCompile(`^1\nRun Time: real \d+\.\d{3}\n$`), out.String())
}

func TestShell_Stats_And_Help(t *testing.T) {
	s, out, _ := newMemShell(t)
	s.Dot(".stats")
	assert.Contains(t, out.String(), "Storage.")
	assert.Contains(t, out.String(), "PlanCacheHits:")
	out.Reset()
	s.Dot(".help")
	for name := range dotCommands {
		assert.Contains(t, out.String(), "."+name, "every command is in .help")
	}
}

// A table wider than the terminal is narrowed: every line fits, and the
// cut cells end with "…".
func TestGrid_FitsTerminalWidth(t *testing.T) {
	for _, mode := range []string{"table", "box"} {
		var b bytes.Buffer
		w := newResultWriter(&b, format{mode: mode, termWidth: 40})
		w.begin([]string{"id", "description", "name"})
		w.row([]any{int64(1), strings.Repeat("long text 日本 ", 10), "short"})
		w.row([]any{int64(22), "x", nil})
		w.end()
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		require.Len(t, lines, 6)
		for _, l := range lines {
			assert.LessOrEqual(t, runewidth.StringWidth(l), 40, l)
		}
		assert.Contains(t, lines[3], "…")
		assert.Contains(t, lines[3], "short", "the narrow columns keep their text")
	}
}

func TestProgress_ShowsRowsRateAndETA(t *testing.T) {
	var b bytes.Buffer
	read := int64(25)
	p := &progress{w: &b, total: 100, read: &read, start: time.Now().Add(-2 * time.Second)}
	p.draw(1000, time.Now())
	assert.Regexp(t, regexp.MustCompile(`^\r█{7}░{23}  25\.0%  1000 rows  \d+ rows/s  ETA \ds `), b.String())
}

func TestSplitSQL_StatementEnds(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		rest string
	}{
		{"SELECT 1; SELECT 2;", []string{"SELECT 1;", " SELECT 2;"}, ""},
		{"SELECT ';'", nil, "SELECT ';'"},
		{"SELECT 1 -- ;\n", nil, "SELECT 1 -- ;\n"},
		{"SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1;"}, ""},
		{`SELECT "a;b", [c;d], ` + "`e;f`;", []string{`SELECT "a;b", [c;d], ` + "`e;f`;"}, ""},
		{"CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; SELECT CASE WHEN 1 THEN 2 END; END; SELECT 3;",
			[]string{"CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; SELECT CASE WHEN 1 THEN 2 END; END;", " SELECT 3;"}, ""},
		{"CREATE TEMP TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;", nil, "CREATE TEMP TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;"},
		{"CREATE TABLE begin_end(a); ", []string{"CREATE TABLE begin_end(a);"}, " "},
		{"SELECT 'it''s;'; x", []string{"SELECT 'it''s;';"}, " x"},
	}
	for _, c := range cases {
		stmts, rest, _ := splitSQL(c.in)
		var got []string
		for _, s := range stmts {
			got = append(got, s.sql)
		}
		assert.Equal(t, c.want, got, c.in)
		assert.Equal(t, c.rest, rest, c.in)
	}
}
