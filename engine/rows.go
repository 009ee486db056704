package engine

import (
	"context"
	"io"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/types"
)

// Column describes one result column.
type Column struct {
	Name     string
	DeclType string // declared type of the source column, "" for expressions
	Nullable int8   // 1 yes, 0 no, -1 unknown
}

// resultSet is one statement's rows: streamed from an operator tree, or
// held (RETURNING, PRAGMA, EXPLAIN).
type resultSet struct {
	cols []Column
	op   exec.Operator
	ctx  *exec.Ctx
	b    *exec.Batch
	k    int
	held [][]types.Value
	// st is the statement (and autocommit transaction) a streaming set
	// keeps open; sess ends it.
	st   stmtTx
	sess *Session
	done bool
	// progs takes op back as an idle program of bp once the set is closed.
	progs *progCache
	bp    *boundPlan
	// home is the session that may keep op instead (see keptProg).
	home *Session
}

func staticRows(cols []Column, rows [][]types.Value) *resultSet {
	if rows == nil {
		rows = [][]types.Value{}
	}
	return &resultSet{cols: cols, held: rows}
}

// start readies rs, new or reused, to stream op's rows. It stores field
// by field, not a resultSet literal: see exec.Ctx.Reset.
func (rs *resultSet) start(cols []Column, op exec.Operator, c *exec.Ctx, progs *progCache, bp *boundPlan, home *Session) {
	rs.cols, rs.op, rs.ctx, rs.b, rs.k, rs.held = cols, op, c, nil, 0, nil
	rs.st, rs.sess, rs.done = stmtTx{}, nil, false
	rs.progs, rs.bp, rs.home = progs, bp, home
}

// next fills dest with the next row; io.EOF at the end.
func (rs *resultSet) next(dest []types.Value) (err error) {
	defer recoverInternal(&err)
	if rs.done {
		return io.EOF
	}
	if rs.op == nil {
		if rs.k >= len(rs.held) {
			rs.done = true
			return io.EOF
		}
		copy(dest, rs.held[rs.k])
		rs.k++
		return nil
	}
	for rs.b == nil || rs.k >= rs.b.Len() {
		// Operators that emit full batches leave polling the context to
		// their consumer; this is the last one (Exec drains here too).
		if err := rs.ctx.Check(); err != nil {
			return err
		}
		b, err := rs.op.Next(rs.ctx)
		if err != nil {
			return err
		}
		if b == nil {
			rs.done = true
			return io.EOF
		}
		rs.b, rs.k = b, 0
	}
	i := rs.b.Phys(rs.k)
	for c := range dest {
		if c < len(rs.b.Cols) {
			dest[c] = rs.b.Cols[c][i]
		}
	}
	rs.k++
	return nil
}

// close ends the statement a streaming set holds open.
func (rs *resultSet) close(err error) error {
	if rs.op != nil {
		rs.op.Close()
		if rs.progs != nil && (rs.home == nil || !rs.home.keepQueryProg(rs.bp, rs.op)) {
			rs.progs.put(rs.bp, rs.op)
		}
		rs.op, rs.progs, rs.bp, rs.home = nil, nil, nil, nil
		if rs.sess != nil {
			e := rs.sess.endStatement(rs.st, err)
			rs.sess = nil
			if err == nil {
				err = e
			}
		}
	}
	rs.done = true
	return err
}

// drain reads and discards the remaining rows, then closes.
func (rs *resultSet) drain() error {
	dest := make([]types.Value, len(rs.cols))
	for {
		err := rs.next(dest)
		if err == io.EOF {
			return rs.close(nil)
		}
		if err != nil {
			return rs.close(err)
		}
	}
}

// Rows streams a statement's result sets.
type Rows struct {
	rowsState
	mem stmtMem
	// argBuf holds the arguments of a query with few parameters.
	argBuf [4]types.Value
}

// rowsState is what a Rows starts from zero for each query; mem and argBuf
// are overwritten before use, so reusing a Rows clears only this (mem
// holds pointers, and clearing them costs write barriers while the
// collector runs).
type rowsState struct {
	s    *Session
	sc   *script
	args []types.Value
	ctx  context.Context
	next int // next statement of the script to run
	cur  *resultSet
	// pending is a result set found while looking ahead for
	// HasNextResultSet.
	pending *resultSet
	closed  bool
	// explicit is set when the rows read the session's explicit
	// transaction.
	explicit bool
	// openAt is the Rows' index in the session's open list, -1 when not
	// in it.
	openAt int
}

// advance runs statements from r.next until one returns rows; cur is nil
// when the script ends first.
func (r *Rows) advance() error {
	r.cur = nil
	if r.pending != nil {
		r.cur, r.pending = r.pending, nil
		return nil
	}
	for r.next < len(r.sc.stmts) {
		i := r.next
		r.next++
		out, err := r.s.runStatement(r.ctx, r.sc, i, r.args, &r.mem)
		if err != nil {
			return err
		}
		if out.rows != nil {
			r.cur = out.rows
			return nil
		}
	}
	return nil
}

// Columns returns the current result set's columns.
func (r *Rows) Columns() []Column {
	if r.cur == nil {
		return nil
	}
	return r.cur.cols
}

// Next fills dest with the next row; io.EOF at the end. Values are valid
// until the next Next or Close.
func (r *Rows) Next(dest []types.Value) error {
	if r.closed || r.cur == nil {
		return io.EOF
	}
	err := r.cur.next(dest)
	if err != nil && err != io.EOF {
		r.cur.close(err)
	}
	return err
}

// HasNextResultSet reports whether another result set follows. Statements
// without rows between the current set and the next run now.
func (r *Rows) HasNextResultSet() bool {
	if r.closed {
		return false
	}
	if r.pending != nil {
		return true
	}
	if r.next >= len(r.sc.stmts) {
		return false
	}
	if r.cur != nil {
		if err := r.cur.drain(); err != nil {
			return false
		}
	}
	cur := r.cur
	if err := r.advance(); err != nil {
		r.cur = cur
		return false
	}
	r.pending, r.cur = r.cur, cur
	return r.pending != nil
}

// NextResultSet advances to the next result set; io.EOF when none.
func (r *Rows) NextResultSet() error {
	if r.closed {
		return io.EOF
	}
	if r.cur != nil {
		if err := r.cur.drain(); err != nil {
			return err
		}
	}
	if err := r.advance(); err != nil {
		return err
	}
	if r.cur == nil {
		return io.EOF
	}
	return nil
}

// newRows returns an empty Rows for a query of sc: the one last released,
// if any, so that a query loop allocates none.
func (s *Session) newRows(sc *script, ctx context.Context) *Rows {
	r := s.spareRows
	if r == nil {
		return &Rows{rowsState: rowsState{s: s, sc: sc, ctx: ctx, openAt: -1}}
	}
	s.spareRows = nil
	// Field by field, not a rowsState literal: see exec.Ctx.Reset.
	r.s, r.sc, r.args, r.ctx, r.next, r.cur, r.pending = s, sc, nil, ctx, 0, nil, nil
	r.closed, r.explicit, r.openAt = false, false, -1
	r.mem.ctxUsed, r.mem.rsUsed = false, false
	return r
}

// Release closes the rows and hands their memory to the session for a
// later query. The caller must not use r afterwards; the database/sql
// driver, which never touches rows after closing them, releases instead
// of closing.
func (r *Rows) Release() error {
	err := r.Close()
	if r.s.spareRows == nil {
		r.cur, r.pending, r.args, r.ctx = nil, nil, nil, nil
		r.s.spareRows = r
	}
	return err
}

// Close releases the rows, ending their statement.
func (r *Rows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	var err error
	if r.cur != nil {
		err = r.cur.close(nil)
	}
	if r.pending != nil {
		r.pending.close(nil)
	}
	r.s.untrack(r)
	return err
}
