package txn

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTombFilter_Add_NoFalseNegativesAcrossResizes adds keys through many
// resizes: every key added must still be reported, and most absent keys
// must be ruled out.
func TestTombFilter_Add_NoFalseNegativesAcrossResizes(t *testing.T) {
	var f tombFilter
	other := map[string]tombState{}
	const n = 5000
	for i := range n {
		k := fmt.Sprintf("key%d", i)
		other[k] = tsUnverified
		f.add(k, other)
		if i%97 == 0 {
			for j := 0; j <= i; j++ {
				require.True(t, f.mayHold([]byte(fmt.Sprintf("key%d", j))), "key%d after %d adds", j, i+1)
			}
		}
	}
	falsePos := 0
	for i := range n {
		if f.mayHold([]byte(fmt.Sprintf("absent%d", i))) {
			falsePos++
		}
	}
	require.Less(t, falsePos, n/10)
}
