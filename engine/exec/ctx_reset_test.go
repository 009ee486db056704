package exec

import (
	"reflect"
	"testing"
	"time"

	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/stretchr/testify/require"
)

// TestCtx_Reset_ZeroesEveryField fills every field of a Ctx and checks
// Reset leaves none set, so a field added to Ctx without a line in Reset
// fails here rather than leaking one statement's state into the next.
func TestCtx_Reset_ZeroesEveryField(t *testing.T) {
	c := &Ctx{Args: nil, Now: time.Unix(1, 0), StmtText: "x", StmtOffset: 1,
		Setting: func(string) (v types.Value, ok bool) { return v, false },
		outer:   [][]types.Value{nil}, subs: map[int]*subResult{}, ticks: 1,
		fk: &fkCounter{}, ForeignKeys: true, DeferFK: func(string) {}, TriggerDepth: 1, ActionDepth: 1, MemoryLimit: 1, memUsed: 1,
		LengthLimit: 1, LikeLimit: 1}
	v := reflect.ValueOf(c).Elem()
	set := 0
	for i := range v.NumField() {
		if !v.Field(i).IsZero() {
			set++
		}
	}
	// Go, Tx, TempTx, Catalog, Args, Sess, Pool and Triggers are left nil
	// above: the count guards the fields a literal could fill here.
	require.Equal(t, v.NumField()-8, set, "fill every new field above")
	c.Reset()
	require.True(t, v.IsZero(), "Reset must zero every field of Ctx")
}
