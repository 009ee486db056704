package engine

import (
	"context"

	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Arg is one bound argument: Ordinal is 1-based, Name is without its prefix
// or "".
type Arg struct {
	Ordinal int
	Name    string
	Value   types.Value
}

// Result is what Exec reports.
type Result struct{ LastInsertID, RowsAffected int64 }

// Stmt is a prepared script of one or more statements.
type Stmt struct {
	s      *Session
	sc     *script
	closed bool
	// execBusy guards execArgs and execMem, the argument and context room
	// Exec reuses across calls; a re-entrant Exec allocates its own.
	execBusy bool
	execArgs [8]types.Value
	execMem  stmtMem
}

// Prepare parses (through the plan cache) and binds sql, which may hold
// several statements; a syntax error or an unknown name fails here.
// Statements after the first schema change of a script are bound when
// they run, since they may name what it creates.
func (s *Session) Prepare(ctx context.Context, sql string) (st *Stmt, err error) {
	return s.PrepareReuse(ctx, sql, nil)
}

// PrepareReuse is Prepare building the statement in old, a closed
// statement of this session that nothing refers to any more, so that a
// query run once (the driver's unprepared Query and Exec) allocates no
// Stmt. A nil old, or one still open or running, is left alone.
func (s *Session) PrepareReuse(ctx context.Context, sql string, old *Stmt) (st *Stmt, err error) {
	defer recoverInternal(&err)
	sc, err := s.prepareScript(sql)
	if err != nil {
		return nil, err
	}
	if old != nil && old.s == s && old.closed && !old.execBusy {
		// A closed Stmt's Exec room was cleared when its last Exec ended.
		old.sc, old.closed = sc, false
		return old, nil
	}
	return &Stmt{s: s, sc: sc}, nil
}

// prepareScript parses (through the plan cache) and binds sql.
func (s *Session) prepareScript(sql string) (*script, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	sc, err := s.db.parse(sql)
	if err != nil {
		return nil, err
	}
	cat := s.txCat
	if cat == nil {
		cat = s.db.cat.Load()
	}
	cat = s.compose(cat)
	for i, g := range sc.stmts {
		if plan.IsDDL(g) {
			break
		}
		if _, ok := sc.txControl(i); ok {
			continue
		}
		if _, err := s.bindAt(sc, i, cat, s.sessionTx()); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// NumInput returns the true placeholder count, or -1 when one name is
// written with two prefixes (:a and @a are two placeholders, as in SQLite,
// which one named argument binds: the argument count is not the
// placeholder count).
func (st *Stmt) NumInput() int {
	if st.sc.namesRepeat {
		return -1
	}
	return st.sc.numInput
}

// ParamNames returns, per 1-based position i at [i-1], "" or the
// placeholder's name without its prefix.
func (st *Stmt) ParamNames() []string { return st.sc.names }

// argsInto maps arguments to positions in buf when it has room, so a
// query with a few parameters allocates nothing for them.
func (st *Stmt) argsInto(buf []types.Value, in []Arg) ([]types.Value, error) {
	n := st.sc.numInput
	if n == 0 && len(in) == 0 {
		return nil, nil
	}
	var out []types.Value
	if n <= cap(buf) {
		out = buf[:n]
	} else {
		out = make([]types.Value, n)
	}
	set := make([]bool, n)
	for _, a := range in {
		pos := a.Ordinal - 1
		if a.Name != "" {
			// :a, @a and $a are different placeholders with the same
			// name: the argument binds them all.
			found := false
			for i, nm := range st.sc.names {
				if nm == a.Name {
					out[i], set[i], found = a.Value, true, true
				}
			}
			if !found {
				return nil, errs.New(errs.CodeRange, "no parameter named %s", a.Name)
			}
			continue
		}
		if pos < 0 || pos >= n {
			return nil, errs.New(errs.CodeRange, "argument %d out of range: the statement has %d parameters", a.Ordinal, n)
		}
		out[pos], set[pos] = a.Value, true
	}
	for i, ok := range set {
		if !ok {
			return nil, errs.New(errs.CodeRange, "missing argument for parameter %d", i+1)
		}
	}
	return out, nil
}

func (st *Stmt) usable() error {
	if st.closed {
		return errs.New(errs.CodeMisuse, "statement is closed")
	}
	return st.s.usable()
}

// Exec runs every statement of the script, stopping at the first error.
// The result is the last statement's.
func (st *Stmt) Exec(ctx context.Context, args []Arg) (res Result, err error) {
	defer recoverInternal(&err)
	if err := st.usable(); err != nil {
		return res, err
	}
	var buf []types.Value
	var mem *stmtMem
	if !st.execBusy {
		st.execBusy = true
		defer st.execDone()
		buf, mem = st.execArgs[:0], &st.execMem
	}
	vals, err := st.argsInto(buf, args)
	if err != nil {
		return res, err
	}
	if len(st.sc.stmts) == 0 {
		return res, errs.New(errs.CodeMisuse, "empty statement")
	}
	for i := range st.sc.stmts {
		if mem != nil {
			mem.ctxUsed, mem.rsUsed = false, false
		}
		out, err := st.s.runStatement(ctx, st.sc, i, vals, mem)
		if err != nil {
			return res, err
		}
		if out.rows != nil {
			// A query run through Exec is drained and discarded.
			if err := out.rows.drain(); err != nil {
				return res, err
			}
		}
		res = out.res
		res.LastInsertID = st.s.lastRowid
	}
	return res, nil
}

// execDone releases Exec's reusable room, dropping what it references.
func (st *Stmt) execDone() {
	st.execBusy = false
	st.execArgs = [8]types.Value{}
	st.execMem = stmtMem{}
}

// Query runs the script and returns the result sets of the statements that
// return rows; statements without rows run as the result sets are reached.
func (st *Stmt) Query(ctx context.Context, args []Arg) (r *Rows, err error) {
	defer recoverInternal(&err)
	if err := st.usable(); err != nil {
		return nil, err
	}
	r = st.s.newRows(st.sc, ctx)
	vals, err := st.argsInto(r.argBuf[:0], args)
	if err != nil {
		return nil, err
	}
	if len(st.sc.stmts) == 0 {
		return nil, errs.New(errs.CodeMisuse, "empty statement")
	}
	r.args = vals
	if err := r.advance(); err != nil {
		return nil, err
	}
	st.s.track(r)
	return r, nil
}

// Close releases the statement.
func (st *Stmt) Close() error {
	st.closed = true
	return nil
}
