// Package shell is the ladybug command-line shell: SQL statements and
// sqlite3-style dot commands read from a terminal, a script or arguments,
// with results printed in one of several output modes.
package shell

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/ladybugsql/ladybug"
	"github.com/ladybugsql/ladybug/grammar"
	"github.com/mattn/go-runewidth"
)

// Shell is one session: an open database, the output settings, and the
// statement being typed.
type Shell struct {
	stdout, stderr io.Writer
	out            io.Writer // where results go: stdout, or a .output/.once file
	outFile        *os.File
	once           bool // outFile is closed after the next statement

	db       *sql.DB
	conn     *sql.Conn
	path     string
	readOnly bool

	f       format
	timer   bool
	changes bool
	eqp     bool
	bail    bool

	// TermWidth, when set, gives the terminal's width for table output.
	TermWidth func() int
	// Progress, when true, shows a progress bar on stderr during .import.
	Progress bool

	failed  bool // some statement or command failed (exit status 1)
	quit    bool
	stopped atomic.Bool     // Stop was called (from a signal handler)
	pending strings.Builder // the statement being read
	pendAt  int             // line of pending's first line

	mu     sync.Mutex
	cancel context.CancelFunc // cancels the running statement
}

// New returns a shell writing results to stdout and errors to stderr, with
// no database open yet.
func New(stdout, stderr io.Writer) *Shell {
	s := &Shell{stdout: stdout, stderr: stderr, out: stdout}
	s.f = format{mode: "list", sep: "|"}
	return s
}

// SetMode sets the output mode and whether list-like modes print headers.
func (s *Shell) SetMode(mode string, headers bool) {
	s.f.mode, s.f.headers = mode, headers
}

// SetBail makes the shell stop at the first error.
func (s *Shell) SetBail(on bool) { s.bail = on }

// Failed reports whether any statement or command failed.
func (s *Shell) Failed() bool { return s.failed }

// Quit reports whether .quit or .exit was given, -bail stopped, or Stop
// was called.
func (s *Shell) Quit() bool { return s.quit || s.stopped.Load() }

// Stop cancels the running statement and ends Run before the next line;
// it may be called from another goroutine (a SIGINT handler of a script).
func (s *Shell) Stop() {
	s.stopped.Store(true)
	s.Interrupt()
}

// Pending reports whether a statement has been started and not finished.
func (s *Shell) Pending() bool { return s.pending.Len() > 0 }

// Reset forgets the statement being typed (Ctrl-C at the prompt).
func (s *Shell) Reset() { s.pending.Reset() }

// Interrupt cancels the running statement, if any.
func (s *Shell) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Close closes the database and any output file.
func (s *Shell) Close() error {
	s.closeOutput()
	return s.closeDB()
}

// errorf reports a failed command on stderr.
func (s *Shell) errorf(format string, args ...any) {
	s.failed = true
	fmt.Fprintf(s.stderr, "Error: "+format+"\n", args...)
	if s.bail {
		s.quit = true
	}
}

// Run reads r line by line to its end (or .quit), running each complete
// statement and dot command. src names r in error positions ("" for
// none).
func (s *Shell) Run(r io.Reader, src string) {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; !s.Quit(); n++ {
		line, err := br.ReadString('\n')
		if line != "" {
			s.Feed(strings.TrimRight(line, "\r\n"), src, n)
		}
		if err != nil {
			break
		}
	}
	s.Flush(src)
}

// Feed takes one line of input: a dot command when no statement is under
// way, otherwise more SQL; each statement is run once its ';' arrives.
func (s *Shell) Feed(line, src string, lineNo int) {
	if s.pending.Len() == 0 {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, ".") {
			s.Dot(t)
			return
		}
		s.pendAt = lineNo
	}
	s.pending.WriteString(line)
	s.pending.WriteByte('\n')
	text := s.pending.String()
	stmts, rest, restOff := splitSQL(text)
	for _, st := range stmts {
		if s.Quit() {
			break
		}
		l, c := lineCol(text, st.off)
		s.Exec(st.sql, src, s.pendAt+l-1, c)
	}
	s.pending.Reset()
	if !blankSQL(rest) {
		l, _ := lineCol(text, restOff)
		s.pendAt += l - 1
		s.pending.WriteString(rest)
	}
}

// Flush runs an unfinished last statement (input ended without its ';').
func (s *Shell) Flush(src string) {
	if s.pending.Len() == 0 || s.Quit() {
		s.pending.Reset()
		return
	}
	text := s.pending.String()
	s.pending.Reset()
	s.Exec(text, src, s.pendAt, 1)
}

// lineCol is the 1-based line and column (in characters) of byte off.
func lineCol(text string, off int) (line, col int) {
	line = 1 + strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(text[start:off])
}

// Exec runs one SQL statement that starts at line:col of src and prints
// its result.
func (s *Shell) Exec(query, src string, line, col int) {
	defer s.endOnce()
	if s.conn == nil {
		s.errorf("no database is open (.open FILE)")
		return
	}
	if s.eqp && !startsWithWord(query, "EXPLAIN") {
		s.explain(query)
	}
	start := time.Now()
	err := s.query(query)
	if s.timer {
		fmt.Fprintf(s.out, "Run Time: real %.3f\n", time.Since(start).Seconds())
	}
	if err != nil {
		s.failed = true
		s.printErr(err, query, src, line, col)
		if s.bail {
			s.quit = true
		}
		return
	}
	if s.changes {
		var n, total int64
		if s.conn.QueryRowContext(context.Background(), "SELECT changes(), total_changes()").Scan(&n, &total) == nil {
			fmt.Fprintf(s.out, "changes: %d   total_changes: %d\n", n, total)
		}
	}
}

// cancellable returns a context that Interrupt cancels, until done.
func (s *Shell) cancellable() (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		s.cancel = nil
		s.mu.Unlock()
		cancel()
	}
}

// query runs one statement, cancellable by Interrupt, and prints its rows.
func (s *Shell) query(query string) error {
	ctx, done := s.cancellable()
	defer done()
	rows, err := s.conn.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if len(cols) == 0 {
		for rows.Next() {
		}
		return rows.Err()
	}
	f := s.f
	if s.TermWidth != nil && s.out == s.stdout {
		f.termWidth = s.TermWidth()
	}
	w := newResultWriter(s.out, f)
	w.begin(cols)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		w.row(vals)
		n++
	}
	if err := rows.Err(); err != nil {
		if n > 0 {
			w.end()
		}
		return err
	}
	if n > 0 {
		w.end()
	}
	return nil
}

func startsWithWord(query, word string) bool {
	toks := grammar.Tokens(query)
	return len(toks) > 0 && strings.EqualFold(query[toks[0].Start:toks[0].End], word)
}

// printErr prints a failed statement's error as "Error: src:line:col: msg"
// and, when the failing token is known, its line with a caret under it.
func (s *Shell) printErr(err error, query, src string, line, col int) {
	msg, off := errorText(err, query)
	if msg == "interrupted" {
		fmt.Fprintln(s.stderr, "Error: interrupted")
		return
	}
	where := ""
	if src != "" {
		where = src + ":"
	}
	if off < 0 {
		fmt.Fprintf(s.stderr, "Error: %s%d: %s\n", where, line, msg)
		return
	}
	l, c := lineCol(query, off)
	absLine, absCol := line+l-1, c
	if l == 1 {
		absCol = col + c - 1
	}
	fmt.Fprintf(s.stderr, "Error: %s%d:%d: %s\n", where, absLine, absCol, msg)
	text := strings.Split(query, "\n")[l-1]
	cut := text[:min(len(text), byteOfRune(text, c-1))]
	fmt.Fprintf(s.stderr, "  %s\n  %s^\n", strings.ReplaceAll(text, "\t", " "),
		strings.Repeat(" ", runewidth.StringWidth(strings.ReplaceAll(cut, "\t", " "))))
}

// errorText is the message of err without the "ladybug: " prefix and any
// stack, and the byte offset in query of the token it is about (-1 when
// unknown).
func errorText(err error, query string) (string, int) {
	var se *grammar.SyntaxError
	if errors.As(err, &se) {
		msg := se.Msg
		if se.Near != "" {
			msg = fmt.Sprintf("near %q: %s", se.Near, se.Msg)
		} else {
			msg = "incomplete input: " + se.Msg
		}
		if se.Hint != "" {
			msg += " (" + se.Hint + ")"
		}
		off := se.Offset
		if off > len(query) {
			off = len(query)
		}
		return msg, off
	}
	msg := cleanMessage(err)
	return msg, nameOffset(msg, query)
}

// cleanMessage is err's first line without the "ladybug: " prefix.
func cleanMessage(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if errors.Is(err, ladybug.ErrInterrupt) || errors.Is(err, context.Canceled) {
		return "interrupted"
	}
	return strings.TrimPrefix(msg, "ladybug: ")
}

// nameOffset finds, for "no such table: x"-like messages, the first token
// of query that is that name.
func nameOffset(msg, query string) int {
	i := strings.Index(msg, "no such ")
	if i < 0 {
		return -1
	}
	_, name, ok := strings.Cut(msg[i:], ": ")
	if !ok {
		return -1
	}
	if j := strings.LastIndexByte(name, '.'); j >= 0 {
		name = name[j+1:]
	}
	for _, t := range grammar.Tokens(query) {
		w := strings.Trim(query[t.Start:t.End], "\"`[]")
		if strings.EqualFold(w, name) {
			return t.Start
		}
	}
	return -1
}

func byteOfRune(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// explain prints EXPLAIN QUERY PLAN of query as sqlite3's .eqp does.
func (s *Shell) explain(query string) {
	rows, err := s.conn.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query)
	if err != nil {
		return
	}
	defer rows.Close()
	type node struct {
		id, parent int64
		detail     string
	}
	var nodes []node
	for rows.Next() {
		var n node
		var unused any
		if rows.Scan(&n.id, &n.parent, &unused, &n.detail) != nil {
			return
		}
		nodes = append(nodes, n)
	}
	if rows.Err() != nil || len(nodes) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("QUERY PLAN\n")
	var walk func(parent int64, indent string)
	walk = func(parent int64, indent string) {
		var kids []node
		for _, n := range nodes {
			if n.parent == parent {
				kids = append(kids, n)
			}
		}
		for i, k := range kids {
			last := i == len(kids)-1
			branch, next := "|--", "|  "
			if last {
				branch, next = "`--", "   "
			}
			b.WriteString(indent + branch + k.detail + "\n")
			walk(k.id, indent+next)
		}
	}
	walk(0, "")
	io.WriteString(s.out, b.String())
}
