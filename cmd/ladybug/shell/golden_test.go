package shell

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts")

// A transcript in testdata/*.txt is a list of sections, each opened by a
// line "-- NAME --": "input" is the script, "stdout" and "stderr" what the
// shell prints for it; any other section is a file written into the
// directory the script runs in.
type transcript struct {
	names    []string
	sections map[string]string
}

func parseTranscript(text string) transcript {
	t := transcript{sections: map[string]string{}}
	cur := ""
	for _, line := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimRight(line, "\n"), " --") {
			cur = strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(line, "\n"), "-- "), " --")
			t.names = append(t.names, cur)
			continue
		}
		if cur != "" {
			t.sections[cur] += line
		}
	}
	return t
}

func (t transcript) format() string {
	var b strings.Builder
	for _, n := range t.names {
		b.WriteString("-- " + n + " --\n")
		b.WriteString(t.sections[n])
	}
	return b.String()
}

// runScript runs script in a fresh shell on an in-memory database in dir
// and returns what it printed.
func runScript(t *testing.T, dir, script string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	s := New(&out, &errOut)
	require.NoError(t, s.Open(":memory:", false))
	t.Chdir(dir)
	s.Run(strings.NewReader(script), "input")
	require.NoError(t, s.Close())
	return out.String(), errOut.String()
}

func TestShell_Transcripts_Golden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			tr := parseTranscript(string(raw))
			dir := t.TempDir()
			for _, n := range tr.names {
				if n != "input" && n != "stdout" && n != "stderr" {
					require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte(tr.sections[n]), 0o644))
				}
			}
			abs, err := filepath.Abs(file)
			require.NoError(t, err)
			stdout, stderr := runScript(t, dir, tr.sections["input"])
			if *update {
				tr.sections["stdout"], tr.sections["stderr"] = stdout, stderr
				var names []string
				for _, n := range tr.names {
					if n != "stdout" && n != "stderr" {
						names = append(names, n)
					}
				}
				tr.names = append(names, "stdout", "stderr")
				require.NoError(t, os.WriteFile(abs, []byte(tr.format()), 0o644))
				return
			}
			assert.Equal(t, tr.sections["stdout"], stdout, "stdout")
			assert.Equal(t, tr.sections["stderr"], stderr, "stderr")
		})
	}
}
