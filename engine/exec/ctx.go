package exec

import (
	"context"
	"time"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/funcs"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/factorized"
)

// Session is what execution needs from the engine's session: counters that
// SQL functions read and writes update.
type Session interface {
	LastInsertRowid() int64
	SetLastInsertRowid(int64)
	Changes() int64
	TotalChanges() int64
	// AddTotalChanges counts rows written by a nested program (a trigger
	// body statement or a foreign key action) toward total_changes()
	// without touching changes(), as SQLite does.
	AddTotalChanges(n int64)
}

// Ctx is the state of one statement execution. It is used by one goroutine.
type Ctx struct {
	Go context.Context
	Tx *txn.Tx
	// TempTx is the transaction of the session's temp store, which holds
	// the trees of temp tables and indexes; nil when the session has no
	// temp schema.
	TempTx  *txn.Tx
	Catalog *catalog.Catalog
	Args    []types.Value
	Sess    Session
	// Now is the statement's time; zero until Time first asks for it.
	Now time.Time
	// Pool supplies the blocks of factorized tables.
	Pool *factorized.Pool
	// StmtText and StmtOffset are the running statement's source text and
	// its offset in the script, for DDL that keeps text as written.
	StmtText   string
	StmtOffset int
	// Setting, when set, answers single-value pragmas read as tables
	// (pragma_page_size…): the value and whether the name is known.
	Setting func(name string) (types.Value, bool)
	// outer is the stack of enclosing rows for correlated subqueries,
	// innermost last.
	outer [][]types.Value
	// subs caches results of uncorrelated subqueries by Subquery.ID.
	subs  map[int]*subResult
	ticks int32
	// ForeignKeys enables foreign key enforcement (PRAGMA foreign_keys).
	// (Beside ticks: the two share a word, keeping Ctx in its size class.)
	ForeignKeys bool
	// fk counts the statement's immediate foreign key violations.
	fk *fkCounter
	// DeferFK, when set, records a table whose deferred foreign keys must
	// be verified before the transaction commits.
	DeferFK func(table string)
	// Triggers, when set, fires the triggers of a table for one row of a
	// write (the engine's session). TriggerDepth counts the nesting of
	// trigger programs, ActionDepth that of foreign key actions.
	Triggers     TriggerFirer
	TriggerDepth int
	ActionDepth  int
	// MemoryLimit caps bytes held by materialising operators (0 = none).
	MemoryLimit int64
	memUsed     int64
	// LengthLimit and LikeLimit, when positive, lower the longest value a
	// function or || builds and the longest LIKE/GLOB pattern below
	// SQLite's defaults (the connection's limits).
	LengthLimit int32
	LikeLimit   int32
}

// checkEvery is how many Check calls pass between context polls.
const checkEvery = 64

// Check returns an interrupt error once the context is done. Operators call
// it once per batch or per few rows in long loops.
func (c *Ctx) Check() error {
	c.ticks++
	if c.ticks%checkEvery != 0 {
		return nil
	}
	return c.CheckNow()
}

// Time returns the statement's time, read from the clock at its first use
// and fixed from then on, so every 'now' of one statement agrees (as in
// SQLite) and a statement that never asks does not read the clock.
func (c *Ctx) Time() time.Time {
	if c.Now.IsZero() {
		c.Now = time.Now()
	}
	return c.Now
}

// CheckNow polls the context immediately.
func (c *Ctx) CheckNow() error {
	if c.Go == nil {
		return nil
	}
	if err := c.Go.Err(); err != nil {
		return Interrupted(err)
	}
	return nil
}

// Interrupted wraps a context error into an interrupt *errs.Error that
// still matches context.Canceled with errors.Is.
func Interrupted(err error) error {
	return &errs.Error{Code: errs.CodeInterrupt, ExtendedCode: 9, Msg: "interrupted: " + err.Error(), Err: err}
}

// held is the memory an operator has accounted to its statement; it
// gives it back when the operator closes, so a subquery run once per
// outer row counts its rows once, not once per run.
type held struct {
	c *Ctx
	n int64
}

// set accounts size bytes in all (the change since the last call).
// It also accounts them to the process-wide budget (SetMemoryBudget).
func (h *held) set(c *Ctx, size int64) error {
	h.c = c
	d := size - h.n
	h.n = size
	if err := budgetGrow(d); err != nil {
		c.memUsed += d
		return err
	}
	return c.grow(d)
}

// Held is memory a write statement holds for its run (an INSERT …
// SELECT's pending rows), charged like an operator's.
type Held = held

// Set accounts size bytes held (the change since the last call).
func (h *held) Set(c *Ctx, size int64) error { return h.set(c, size) }

// Release gives the accounted bytes back.
func (h *held) Release() { h.release() }

// release gives the accounted bytes back.
func (h *held) release() {
	if h.c != nil {
		h.c.memUsed -= h.n
		memBudget.used.Add(-h.n)
	}
	h.c, h.n = nil, 0
}

// grow accounts n more bytes held by a materialising operator.
func (c *Ctx) grow(n int64) error {
	c.memUsed += n
	if c.MemoryLimit > 0 && c.memUsed > c.MemoryLimit {
		return c.memErr()
	}
	return nil
}

// fits fails with the memory-limit error when n more bytes would pass the
// limit, without accounting them: a value computed for one row (a
// function's result, a concatenation) lives only until the next batch.
func (c *Ctx) fits(n int64) error {
	if c.MemoryLimit > 0 && c.memUsed+n > c.MemoryLimit {
		return c.memErr()
	}
	return budgetFits(n)
}

// LoweredLimits is a connection's length and LIKE/GLOB pattern limits as
// Ctx.LengthLimit and Ctx.LikeLimit hold them: 0 where the value does not
// lower SQLite's default.
func LoweredLimits(length int64, like int) (int32, int32) {
	var l, p int32
	if length > 0 && length < funcs.MaxLength {
		l = int32(length)
	}
	if like > 0 && like < funcs.MaxPatternLength {
		p = int32(like)
	}
	return l, p
}

// valueCheckFloor is the smallest value checked by valueFits: smaller
// ones cannot matter to a limit.
const valueCheckFloor = 64 << 10

// valueFits checks a value of n bytes about to be built against the
// length limit (string or blob too big) and the memory limit.
func (c *Ctx) valueFits(n int64) error {
	if n > funcs.MaxLength || c.LengthLimit > 0 && n > int64(c.LengthLimit) {
		return funcs.ErrTooBig
	}
	return c.fits(n)
}

// memErr is the memory-limit error.
func (c *Ctx) memErr() error {
	return errs.New(errs.CodeNoMem, "query exceeds the memory limit of %d bytes", c.MemoryLimit)
}

// tombCharge charges a write statement for the tombstones its deletes
// leave buffered in the transaction until commit: base is the
// transactions' tombstone bytes when it began, charged what it was
// charged. The tombstones outlive the statement, so nothing is given back.
type tombCharge struct{ base, charged int64 }

// tombBytes is the tombstone memory of the statement's transactions.
func (c *Ctx) tombBytes() int64 { return c.Tx.TombstoneBytes() + c.TempTx.TombstoneBytes() }

// startTombCharge begins charging a statement's tombstones.
func (c *Ctx) startTombCharge() tombCharge {
	if c.MemoryLimit <= 0 {
		return tombCharge{}
	}
	return tombCharge{base: c.tombBytes()}
}

// chargeTombs charges the tombstones buffered since startTombCharge: the
// memory limit's error once the statement's total passes it.
func (c *Ctx) chargeTombs(t *tombCharge) error {
	if c.MemoryLimit <= 0 {
		return nil
	}
	now := c.tombBytes() - t.base
	d := now - t.charged
	if d == 0 {
		return nil
	}
	t.charged = now
	return c.grow(d)
}

// TxOf returns the transaction holding the trees of an object: TempTx for
// a temp one, else Tx.
func (c *Ctx) TxOf(temp bool) *txn.Tx {
	if temp {
		return c.TempTx
	}
	return c.Tx
}

// TableTree returns the row tree of t in the statement's transaction.
func (c *Ctx) TableTree(t *catalog.Table) *txn.TxTree { return c.TxOf(t.Temp).Tree(t.Root) }

// IndexTree returns the tree of ix in the statement's transaction.
func (c *Ctx) IndexTree(ix *catalog.Index) *txn.TxTree { return c.TxOf(ix.Temp).Tree(ix.Root) }

// Reset zeroes every field of c, a context reused for a new statement.
// It stores field by field: assigning a whole Ctx value into reused heap
// memory goes through the runtime's bulk write barrier while the
// collector marks, several times dearer than plain pointer stores, and a
// query loop's small heap keeps the collector marking much of the time.
func (c *Ctx) Reset() {
	c.Go, c.Tx, c.TempTx, c.Catalog, c.Args, c.Sess = nil, nil, nil, nil, nil, nil
	c.Now, c.Pool, c.StmtText, c.StmtOffset, c.Setting = time.Time{}, nil, "", 0, nil
	c.outer, c.subs, c.ticks, c.fk = nil, nil, 0, nil
	c.ForeignKeys, c.DeferFK, c.Triggers, c.TriggerDepth, c.ActionDepth = false, nil, nil, 0, 0
	c.MemoryLimit, c.memUsed, c.LengthLimit, c.LikeLimit = 0, 0, 0, 0
}
