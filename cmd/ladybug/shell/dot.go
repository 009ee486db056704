package shell

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug"
	"github.com/mattn/go-runewidth"
)

// dotCommand is one dot command: its usage line and what it does.
type dotCommand struct {
	usage string
	help  string
	run   func(s *Shell, args []string) error
}

var dotCommands map[string]dotCommand

func init() {
	dotCommands = map[string]dotCommand{
		"backup":    {".backup FILE", "write an online copy of the database to FILE", (*Shell).dotBackup},
		"bail":      {".bail on|off", "stop at the first error", func(s *Shell, a []string) error { return onOff(a, &s.bail) }},
		"changes":   {".changes on|off", "print the number of rows each statement changed", func(s *Shell, a []string) error { return onOff(a, &s.changes) }},
		"databases": {".databases", "list the open database", (*Shell).dotDatabases},
		"dump":      {".dump [--postgres] [TABLE…]", "print SQL that rebuilds the database (or TABLEs) in ladybug and SQLite, or with --postgres in PostgreSQL", (*Shell).dotDump},
		"eqp":       {".eqp on|off", "print EXPLAIN QUERY PLAN before each statement", func(s *Shell, a []string) error { return onOff(a, &s.eqp) }},
		"exit":      {".exit", "leave the shell", (*Shell).dotQuit},
		"export":    {".export [--csv|--tsv|--json|--jsonl|--markdown|--insert] FILE TABLE|SELECT…", "write a table or a query's rows to FILE", (*Shell).dotExport},
		"headers":   {".headers on|off", "print column names in list, csv, tsv and insert modes", func(s *Shell, a []string) error { return onOff(a, &s.f.headers) }},
		"help":      {".help", "list the dot commands", (*Shell).dotHelp},
		"import":    {".import [--csv|--tsv|--json|--jsonl] [--skip N] FILE TABLE", "load rows from FILE into TABLE (created from the header when missing), in one transaction", (*Shell).dotImport},
		"indexes":   {".indexes [TABLE-PATTERN]", "list the indexes (of tables matching the LIKE pattern)", (*Shell).dotIndexes},
		"mode":      {".mode " + strings.Join(Modes, "|") + " [TABLE]", "set the output mode (insert: into TABLE)", (*Shell).dotMode},
		"nullvalue": {".nullvalue TEXT", "print NULL as TEXT", (*Shell).dotNullvalue},
		"once":      {".once FILE", "send the next result to FILE", func(s *Shell, a []string) error { return s.dotOutput(a, true) }},
		"open":      {".open [--readonly] FILE", "close this database and open FILE", (*Shell).dotOpen},
		"output":    {".output [FILE]", "send results to FILE, or back to the screen", func(s *Shell, a []string) error { return s.dotOutput(a, false) }},
		"print":     {".print TEXT…", "print the arguments", (*Shell).dotPrint},
		"quit":      {".quit", "leave the shell", (*Shell).dotQuit},
		"read":      {".read FILE", "run the statements and commands in FILE", (*Shell).dotRead},
		"schema":    {".schema [PATTERN]", "print the CREATE statements (of objects matching the LIKE pattern)", (*Shell).dotSchema},
		"separator": {".separator TEXT", "column separator of list mode", (*Shell).dotSeparator},
		"show":      {".show", "print the current settings", (*Shell).dotShow},
		"stats":     {".stats", "print the engine's counters", (*Shell).dotStats},
		"tables":    {".tables [PATTERN]", "list the tables and views (matching the LIKE pattern)", (*Shell).dotTables},
		"timer":     {".timer on|off", "print how long each statement took", func(s *Shell, a []string) error { return onOff(a, &s.timer) }},
		"width":     {".width N…", "column widths of table, box and markdown modes (0: automatic, negative: right-aligned)", (*Shell).dotWidth},
	}
}

// Dot runs one dot command line.
func (s *Shell) Dot(line string) {
	args, err := splitArgs(strings.TrimPrefix(line, "."))
	if err != nil || len(args) == 0 {
		s.errorf("bad command line %q", line)
		return
	}
	name := args[0]
	cmd, ok := dotCommands[name]
	if !ok {
		s.errorf("unknown command .%s (.help lists them)", name)
		return
	}
	if err := cmd.run(s, args[1:]); err != nil {
		s.errorf("%s", err)
	}
	if name != "once" {
		s.endOnce()
	}
}

// splitArgs splits a dot command line at blanks; '…' and "…" quote.
func splitArgs(line string) ([]string, error) {
	var args []string
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated quote")
			}
			args = append(args, line[i+1:i+1+j])
			i += j + 2
		default:
			j := strings.IndexAny(line[i:], " \t")
			if j < 0 {
				j = len(line) - i
			}
			args = append(args, line[i:i+j])
			i += j
		}
	}
	return args, nil
}

func onOff(args []string, b *bool) error {
	if len(args) != 1 {
		return fmt.Errorf("expected on or off")
	}
	switch strings.ToLower(args[0]) {
	case "on", "1", "yes", "true":
		*b = true
	case "off", "0", "no", "false":
		*b = false
	default:
		return fmt.Errorf("expected on or off, not %q", args[0])
	}
	return nil
}

func (s *Shell) dotHelp(args []string) error {
	names := make([]string, 0, len(dotCommands))
	w := 0
	for n, c := range dotCommands {
		names = append(names, n)
		w = max(w, len(c.usage))
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		c := dotCommands[n]
		fmt.Fprintf(&b, "%-*s  %s\n", w, c.usage, c.help)
	}
	io.WriteString(s.out, b.String())
	return nil
}

func (s *Shell) dotQuit([]string) error {
	s.quit = true
	return nil
}

func (s *Shell) dotMode(args []string) error {
	if len(args) == 0 {
		fmt.Fprintf(s.out, "current output mode: %s\n", s.f.mode)
		return nil
	}
	if !slices.Contains(Modes, args[0]) {
		return fmt.Errorf("unknown mode %q (modes: %s)", args[0], strings.Join(Modes, ", "))
	}
	s.f.mode = args[0]
	if args[0] == "insert" {
		s.f.table = ""
		if len(args) > 1 {
			s.f.table = args[1]
		}
	}
	return nil
}

func (s *Shell) dotNullvalue(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: .nullvalue TEXT")
	}
	s.f.null = args[0]
	return nil
}

func (s *Shell) dotSeparator(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: .separator TEXT")
	}
	s.f.sep = strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace(args[0])
	return nil
}

func (s *Shell) dotWidth(args []string) error {
	s.f.widths = s.f.widths[:0]
	for _, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			return fmt.Errorf("not a width: %q", a)
		}
		s.f.widths = append(s.f.widths, n)
	}
	return nil
}

func (s *Shell) dotPrint(args []string) error {
	fmt.Fprintln(s.out, strings.Join(args, " "))
	return nil
}

func (s *Shell) dotShow([]string) error {
	onoff := map[bool]string{true: "on", false: "off"}
	fmt.Fprintf(s.out, "     mode: %s\n  headers: %s\nnullvalue: %q\nseparator: %q\n      eqp: %s\n   timer: %s\n  changes: %s\n     bail: %s\n    width: %v\n filename: %s\n",
		s.f.mode, onoff[s.f.headers], s.f.null, s.f.sep, onoff[s.eqp], onoff[s.timer], onoff[s.changes], onoff[s.bail], s.f.widths, s.path)
	return nil
}

func (s *Shell) dotOutput(args []string, once bool) error {
	if len(args) > 1 {
		return fmt.Errorf("usage: .output [FILE]")
	}
	path := ""
	if len(args) == 1 {
		path = args[0]
	} else if once {
		return fmt.Errorf("usage: .once FILE")
	}
	return s.setOutput(path, once)
}

func (s *Shell) dotRead(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: .read FILE")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	s.Run(f, args[0])
	return nil
}

func (s *Shell) dotOpen(args []string) error {
	ro := false
	if len(args) > 0 && args[0] == "--readonly" {
		ro, args = true, args[1:]
	}
	if len(args) != 1 {
		return fmt.Errorf("usage: .open [--readonly] FILE")
	}
	return s.Open(args[0], ro)
}

func (s *Shell) dotDatabases([]string) error {
	if s.conn == nil {
		return fmt.Errorf("no database is open")
	}
	path := s.path
	if path == ":memory:" {
		path = ""
	} else if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	mode := "r/w"
	if s.readOnly {
		mode = "r/o"
	}
	fmt.Fprintf(s.out, "main: %s %s\n", path, mode)
	return nil
}

func (s *Shell) dotStats([]string) error {
	if s.db == nil {
		return fmt.Errorf("no database is open")
	}
	st, err := ladybug.DBStats(context.Background(), s.db)
	if err != nil {
		return err
	}
	var b strings.Builder
	printStruct(&b, "", reflect.ValueOf(st))
	io.WriteString(s.out, b.String())
	return nil
}

// printStruct writes each number of a (nested) stats struct on a line.
func printStruct(b *strings.Builder, prefix string, v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if f.Kind() == reflect.Struct {
			printStruct(b, prefix+name+".", f)
			continue
		}
		fmt.Fprintf(b, "%-32s %v\n", prefix+name+":", f.Interface())
	}
}

// names runs a one-column query and returns its strings.
func (s *Shell) names(query string, args ...any) ([]string, error) {
	if s.conn == nil {
		return nil, fmt.Errorf("no database is open")
	}
	return queryStrings(s.conn, query, args...)
}

func pattern(args []string) (string, error) {
	switch len(args) {
	case 0:
		return "%", nil
	case 1:
		return args[0], nil
	}
	return "", fmt.Errorf("expected at most one pattern")
}

func (s *Shell) dotTables(args []string) error {
	pat, err := pattern(args)
	if err != nil {
		return err
	}
	names, err := s.names(`SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name LIKE ? ORDER BY 1`, pat)
	if err != nil {
		return err
	}
	s.printColumns(names)
	return nil
}

func (s *Shell) dotIndexes(args []string) error {
	pat, err := pattern(args)
	if err != nil {
		return err
	}
	names, err := s.names(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE ? ORDER BY 1`, pat)
	if err != nil {
		return err
	}
	s.printColumns(names)
	return nil
}

// printColumns lists names in columns across the terminal, as .tables does.
func (s *Shell) printColumns(names []string) {
	if len(names) == 0 {
		return
	}
	w := 0
	for _, n := range names {
		w = max(w, runewidth.StringWidth(n))
	}
	width := 80
	if s.TermWidth != nil && s.out == s.stdout {
		if tw := s.TermWidth(); tw > 0 {
			width = tw
		}
	}
	perLine := max(1, (width+2)/(w+2))
	lines := (len(names) + perLine - 1) / perLine
	var b strings.Builder
	for l := 0; l < lines; l++ {
		for c := 0; c < perLine; c++ {
			i := c*lines + l
			if i >= len(names) {
				break
			}
			if c > 0 {
				b.WriteString("  ")
			}
			b.WriteString(names[i])
			if c < perLine-1 && (c+1)*lines+l < len(names) {
				b.WriteString(strings.Repeat(" ", w-runewidth.StringWidth(names[i])))
			}
		}
		b.WriteByte('\n')
	}
	io.WriteString(s.out, b.String())
}

func (s *Shell) dotSchema(args []string) error {
	pat, err := pattern(args)
	if err != nil {
		return err
	}
	stmts, err := s.names(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name LIKE ?`, pat)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, st := range stmts {
		b.WriteString(st)
		b.WriteString(";\n")
	}
	io.WriteString(s.out, b.String())
	return nil
}
