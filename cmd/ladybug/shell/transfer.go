package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ladybugsql/ladybug"
)

// dotBackup writes a consistent copy of the database to a new file with
// the online backup (other connections keep working; the file appears
// only once complete), showing its progress on a terminal.
func (s *Shell) dotBackup(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: .backup FILE")
	}
	if s.db == nil {
		return fmt.Errorf("no database is open")
	}
	var opts ladybug.BackupOptions
	if s.Progress {
		opts.Progress = func(done, total int) {
			fmt.Fprintf(s.stderr, "\rbackup: %d of %d pages", done, total)
		}
		defer fmt.Fprintln(s.stderr)
	}
	ctx, done := s.cancellable()
	defer done()
	if err := ladybug.Backup(ctx, s.db, args[0], &opts); err != nil {
		return fmt.Errorf("backup to %s: %s", args[0], cleanMessage(err))
	}
	return nil
}

// dotExport writes a table, or the rows of a query, to a file in one of
// the output modes (csv with a header row unless another is chosen).
func (s *Shell) dotExport(args []string) error {
	mode := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "--") {
		m := strings.TrimPrefix(args[0], "--")
		switch m {
		case "csv", "tsv", "json", "jsonl", "markdown", "insert", "table", "box", "list", "line":
			mode = m
		default:
			return fmt.Errorf("unknown option %s of .export", args[0])
		}
		args = args[1:]
	}
	if len(args) < 2 {
		return fmt.Errorf("usage: .export [--csv|--tsv|--json|--jsonl|--markdown|--insert] FILE TABLE|SELECT…")
	}
	path, what := args[0], strings.Join(args[1:], " ")
	if mode == "" {
		mode = modeForFile(path, "csv")
	}
	query := what
	if len(args) == 2 && !strings.ContainsAny(what, " \t") {
		query = "SELECT * FROM " + quoteIdent(what)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	saved, savedOut := s.f, s.out
	s.f.mode, s.f.headers, s.f.termWidth, s.out = mode, true, 0, f
	if mode == "insert" {
		s.f.table = what
	}
	err = s.query(query)
	s.f, s.out = saved, savedOut
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export: %s", cleanMessage(err))
	}
	return nil
}

// modeForFile picks a format from a file name's extension.
func modeForFile(path, fallback string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv"
	case ".tsv", ".tab":
		return "tsv"
	case ".json":
		return "json"
	case ".jsonl", ".ndjson":
		return "jsonl"
	case ".md":
		return "markdown"
	case ".sql":
		return "insert"
	}
	return fallback
}
