package ladybug_test

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestREADME_GraphQueries runs the example of README's "Graph queries"
// section through database/sql: the statements of its sql block, the last
// one a query whose rows must be the block after it.
func TestREADME_GraphQueries(t *testing.T) {
	script, want := readmeExample(t, "## Graph queries")
	stmts := strings.Split(strings.TrimSpace(script), ";")
	stmts = stmts[:len(stmts)-1] // the text after the last ";" is empty
	forEachDSN(t, func(t *testing.T, db *sql.DB, _ string) {
		for _, st := range stmts[:len(stmts)-1] {
			_, err := db.Exec(st)
			require.NoError(t, err, st)
		}
		rows, err := db.Query(stmts[len(stmts)-1])
		require.NoError(t, err)
		defer rows.Close()
		var got []string
		for rows.Next() {
			var name string
			var hops int64
			require.NoError(t, rows.Scan(&name, &hops))
			got = append(got, fmt.Sprintf("%s|%d", name, hops))
		}
		require.NoError(t, rows.Err())
		require.Equal(t, want, got)
	})
}

// readmeExample returns the first ```sql block after heading in README.md
// and the lines of the plain ``` block after it.
func readmeExample(t *testing.T, heading string) (string, []string) {
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, sec, ok := strings.Cut(string(b), "\n"+heading+"\n")
	require.True(t, ok, "README has no %q section", heading)
	_, rest, ok := strings.Cut(sec, "```sql\n")
	require.True(t, ok, "no sql block")
	script, rest, ok := strings.Cut(rest, "\n```\n")
	require.True(t, ok)
	_, rest, ok = strings.Cut(rest, "```\n")
	require.True(t, ok, "no result block")
	out, _, ok := strings.Cut(rest, "\n```")
	require.True(t, ok)
	return script, strings.Split(out, "\n")
}
