package engine

import (
	"context"
	"reflect"
	"testing"

	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/stretchr/testify/require"
)

// nopOp is an operator that is never run.
type nopOp struct{}

func (nopOp) Next(*exec.Ctx) (*exec.Batch, error) { return nil, nil }
func (nopOp) Close()                              {}

// countSet counts the fields of the struct v points to that are not zero.
func countSet(v any) int {
	rv := reflect.ValueOf(v).Elem()
	n := 0
	for i := range rv.NumField() {
		if !rv.Field(i).IsZero() {
			n++
		}
	}
	return n
}

// TestResultSet_Start_SetsEveryField checks start overwrites every field
// of a reused result set, which would otherwise carry the last query's
// state into the next. The count fails when a field is added to
// resultSet: fill it here and set it in start.
func TestResultSet_Start_SetsEveryField(t *testing.T) {
	rs := &resultSet{cols: []Column{{}}, op: nopOp{}, ctx: &exec.Ctx{}, b: &exec.Batch{}, k: 1,
		held: [][]types.Value{nil}, st: stmtTx{tx: &txn.Tx{}}, sess: &Session{}, done: true,
		progs: &progCache{}, bp: &boundPlan{}, home: &Session{}}
	require.Equal(t, reflect.TypeFor[resultSet]().NumField(), countSet(rs), "fill every field above")
	rs.start(nil, nil, nil, nil, nil, nil)
	require.Zero(t, countSet(rs), "start must set every field of resultSet")
}

// TestSession_NewRows_ResetsEveryField checks a reused Rows starts clean.
func TestSession_NewRows_ResetsEveryField(t *testing.T) {
	s := openMem(t).NewSession()
	r := &Rows{rowsState: rowsState{s: &Session{}, sc: &script{}, args: []types.Value{{}}, ctx: context.Background(),
		next: 1, cur: &resultSet{}, pending: &resultSet{}, closed: true, explicit: true, openAt: 3}}
	require.Equal(t, reflect.TypeFor[rowsState]().NumField(), countSet(&r.rowsState), "fill every field above")
	s.spareRows = r
	got := s.newRows(nil, nil)
	require.Same(t, r, got)
	require.Equal(t, rowsState{s: s, openAt: -1}, got.rowsState, "newRows must set every field of rowsState")
}
