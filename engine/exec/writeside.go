package exec

import (
	"bytes"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
)

// What the write side (engine/dml) uses of the executor: it compiles its
// expressions and builds its input operators here, and runs in a Ctx.

// Evaluator computes an expression for each live row of a batch into out.
type Evaluator = evaluator

// Compiler compiles expressions and builds operator trees with one
// builder, so a write's expressions and its input share subquery results.
type Compiler struct{ b *builder }

// NewCompiler returns a compiler with a fresh builder.
func NewCompiler() *Compiler {
	b := newBuilder()
	b.writes = true
	return &Compiler{b: b}
}

// Compile compiles a bound expression.
func (c *Compiler) Compile(e plan.Expr) (Evaluator, error) { return c.b.cp.compile(e) }

// Build builds the operator tree of a plan.
func (c *Compiler) Build(n plan.Node) (Operator, error) { return c.b.build(n) }

// Scratch is an evaluator's output buffer before its first batch.
func Scratch() []types.Value { return scratch() }

// Fit returns *buf grown to hold one value per row of b.
func Fit(buf *[]types.Value, b *Batch) []types.Value { return fit(buf, b) }

// CollOf is the collation named name.
func CollOf(name string) types.Collation { return collOf(name) }

// EvalOne evaluates a row-independent evaluator once.
func EvalOne(c *Ctx, ev Evaluator) (types.Value, error) { return evalOne(c, ev) }

// IsTrue reports whether v is true as a condition.
func IsTrue(v types.Value) bool { return isTrue(v) }

// CollectRows is collectRows for the write side.
func CollectRows(c *Ctx, op Operator, width int, a *RowArena, extra func(b *Batch, i int, row []types.Value) error) ([][]types.Value, error) {
	return collectRows(c, op, width, a, extra)
}

// RowArena hands out the rows a write collects (see rowArena).
type RowArena = rowArena

// Reset forgets every row handed out.
func (a *rowArena) Reset() { a.reset() }

// Row returns a zeroed row of width values.
func (a *rowArena) Row(width int) []types.Value { return a.row(width) }

// ArenaKeepRows is the most rows a program keeps room for between
// executions.
const ArenaKeepRows = arenaKeepRows

// Truth is v as a condition: its value, and whether it is not NULL.
func Truth(v types.Value) (val, ok bool) { return truth(v) }

// Mismatch is SQLite's datatype mismatch error.
func Mismatch(msg string) error { return mismatch(msg) }

// TombCharge charges a write statement for its buffered tombstones.
type TombCharge = tombCharge

// StartTombCharge begins charging a statement's tombstones.
func (c *Ctx) StartTombCharge() TombCharge { return c.startTombCharge() }

// ChargeTombs charges the tombstones buffered since StartTombCharge.
func (c *Ctx) ChargeTombs(t *TombCharge) error { return c.chargeTombs(t) }

// FKViolations is the statement's count of outstanding immediate foreign
// key violations, shared with its trigger programs.
func (c *Ctx) FKViolations() *int64 { return &c.fkc().n }

// HasFKViolations reports whether the statement has outstanding immediate
// foreign key violations.
func (c *Ctx) HasFKViolations() bool { return c.fk != nil && c.fk.n > 0 }

// FKError is the immediate foreign key constraint's error.
func FKError() error { return fkError() }

// KeyValues is row's values in cols, and whether any is NULL.
func KeyValues(row []types.Value, cols []int) ([]types.Value, bool) { return keyValues(row, cols) }

// ChildRows returns the rows of child whose foreign key columns cols
// equal vals in colls, through index seek when set (see
// plan.ChildKey.Seek).
func ChildRows(c *Ctx, child *catalog.Table, cols []int, colls []types.Collation, seek *catalog.Index, vals []types.Value) ([][]types.Value, error) {
	return childRows(c, child, cols, colls, seek, vals)
}

// MissingParent reports whether fk's key vals in a row of t has no parent
// row.
func MissingParent(c *Ctx, t *catalog.Table, fk catalog.ForeignKey, vals []types.Value) (bool, error) {
	return missingParent(c, t, fk, vals)
}

// ScanRows reads every row of t (columns, then rowid), cloned.
func ScanRows(c *Ctx, t *catalog.Table) ([][]types.Value, error) { return scanRows(c, t) }

// SeekIndexPrefix finds an entry of index tree whose key starts with
// prefix and whose rowid is not self.
func SeekIndexPrefix(tree *txn.TxTree, prefix []byte, self int64) (int64, bool, error) {
	cur := tree.Cursor()
	defer cur.Close()
	for ok := cur.Seek(prefix); ok; ok = cur.Next() {
		k := cur.Key()
		if !bytes.HasPrefix(k, prefix) || len(k) != len(prefix)+8 {
			if !bytes.HasPrefix(k, prefix) {
				break
			}
			continue
		}
		rid, err := keycodec.TrailingRowid(k)
		if err != nil {
			return 0, false, err
		}
		if rid != self {
			return rid, true, nil
		}
	}
	return 0, false, cur.Err()
}
