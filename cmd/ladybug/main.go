// Command ladybug is the shell of the ladybug database: open a database
// file, run SQL and sqlite3-style dot commands, import, export and dump.
//
//	ladybug [OPTIONS] [FILE] [SQL…]
//
// With no SQL arguments and a terminal on standard input it is
// interactive; otherwise it runs the arguments, or standard input, and
// exits non-zero if anything failed.
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/term"

	"github.com/ladybugsql/ladybug/cmd/ladybug/shell"
)

const usage = `Usage: ladybug [OPTIONS] [FILE] [SQL…]
FILE is a ladybug database (created if missing; ":memory:" or none for an
in-memory one). Each SQL argument (a statement or a dot command) runs in
turn; without any, statements are read from standard input.
OPTIONS:
  -bail             stop at the first error
  -cmd COMMAND      run COMMAND before reading input (repeatable)
  -readonly         open the database read-only
  -header|-noheader turn column names on or off
  -MODE             output mode: -list -csv -tsv -json -jsonl -markdown -table -box -line
  -nullvalue TEXT   print NULL as TEXT
  -separator SEP    column separator of list mode
  -batch            not interactive even on a terminal
  -interactive      interactive even without a terminal
  -help             show this text
`

type options struct {
	file        string
	sql         []string
	cmds        []string
	bail        bool
	readOnly    bool
	mode        string
	headers     *bool
	null        *string
	sep         *string
	batch       bool
	interactive bool
}

func parseArgs(args []string) (options, error) {
	var o options
	positional := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if positional || !strings.HasPrefix(a, "-") || a == "-" {
			if o.file == "" && len(o.sql) == 0 {
				o.file = a
			} else {
				o.sql = append(o.sql, a)
			}
			continue
		}
		name := strings.TrimLeft(a, "-")
		next := func() (string, error) {
			if i+1 >= len(args) {
				return "", fmt.Errorf("option %s needs an argument", a)
			}
			i++
			return args[i], nil
		}
		switch name {
		case "":
			positional = true
		case "bail":
			o.bail = true
		case "readonly":
			o.readOnly = true
		case "batch":
			o.batch = true
		case "interactive":
			o.interactive = true
		case "header", "headers":
			t := true
			o.headers = &t
		case "noheader", "noheaders":
			f := false
			o.headers = &f
		case "cmd":
			v, err := next()
			if err != nil {
				return o, err
			}
			o.cmds = append(o.cmds, v)
		case "nullvalue":
			v, err := next()
			if err != nil {
				return o, err
			}
			o.null = &v
		case "separator":
			v, err := next()
			if err != nil {
				return o, err
			}
			o.sep = &v
		case "help", "h":
			return o, errHelp
		default:
			if !isMode(name) {
				return o, fmt.Errorf("unknown option %s (ladybug -help lists them)", a)
			}
			o.mode = name
		}
	}
	return o, nil
}

var errHelp = fmt.Errorf("help")

func isMode(m string) bool {
	for _, x := range shell.Modes {
		if x == m {
			return true
		}
	}
	return false
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	o, err := parseArgs(args)
	if err == errHelp {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %s\n", err)
		return 2
	}
	interactive := o.interactive || !o.batch && len(o.sql) == 0 && term.IsTerminal(int(stdin.Fd()))
	sh := shell.New(stdout, stderr)
	defer sh.Close()
	if interactive {
		sh.SetMode("box", true)
	}
	if o.mode != "" {
		sh.Dot(".mode " + o.mode)
	}
	if o.headers != nil {
		sh.Dot(".headers " + map[bool]string{true: "on", false: "off"}[*o.headers])
	}
	if o.null != nil {
		sh.Dot(".nullvalue " + quoteArg(*o.null))
	}
	if o.sep != nil {
		sh.Dot(".separator " + quoteArg(*o.sep))
	}
	sh.SetBail(o.bail)
	if f, ok := stdout.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		sh.TermWidth = func() int {
			w, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return w
		}
		sh.Progress = true
	}
	if err := sh.Open(o.file, o.readOnly); err != nil {
		fmt.Fprintf(stderr, "Error: %s\n", err)
		return 1
	}

	// SIGINT cancels the running statement; in a script it also stops.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			if interactive {
				sh.Interrupt()
			} else {
				sh.Stop()
			}
		}
	}()

	for i, c := range o.cmds {
		sh.Feed(c, fmt.Sprintf("cmd%d", i+1), 1)
		sh.Flush(fmt.Sprintf("cmd%d", i+1))
	}
	switch {
	case sh.Quit():
	case len(o.sql) > 0:
		for i, q := range o.sql {
			if sh.Quit() {
				break
			}
			src := fmt.Sprintf("arg%d", i+1)
			sh.Feed(q, src, 1)
			sh.Flush(src)
		}
	case interactive:
		fmt.Fprintf(stdout, "ladybug shell. Enter .help for the dot commands, end statements with ';'.\n")
		if o.file == "" {
			fmt.Fprintf(stdout, "Connected to a transient in-memory database; .open FILE opens a file.\n")
		}
		if err := sh.Interactive(stdin, historyFile()); err != nil {
			fmt.Fprintf(stderr, "Error: %s\n", err)
			return 1
		}
		return 0
	default:
		sh.Run(stdin, "stdin")
	}
	if sh.Failed() {
		return 1
	}
	return 0
}

// historyFile is where the interactive history is kept across sessions:
// $LADYBUG_HISTORY, or ~/.ladybug_history.
func historyFile() string {
	if p, ok := os.LookupEnv("LADYBUG_HISTORY"); ok {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".ladybug_history")
}

func quoteArg(s string) string { return "'" + s + "'" }
