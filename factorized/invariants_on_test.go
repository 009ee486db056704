//go:build invariants

package factorized

import (
	"strings"
	"testing"
)

// TestInvariants_CheckedBuild_CatchesStaleByte runs only with -tags
// invariants (./test.sh runs it so): a nonzero byte between a block's
// cursor and its zeroed frontier — what a bookkeeping bug leaves behind —
// must make the next block operation panic, so the checked run of the
// suite is a real check and not a build tag that compiles to nothing.
func TestInvariants_CheckedBuild_CatchesStaleByte(t *testing.T) {
	p := NewPool(PoolOptions{})
	b := p.Get()
	if _, ok := b.Claim(16); !ok {
		t.Fatal("claim failed")
	}
	b.buf[b.used+8] = 0x5a // inside [used, zeroed): should read as zero
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.Contains(msg, "between cursor") {
			t.Fatalf("the checked build did not catch a nonzero byte past the cursor (recovered %v)", r)
		}
	}()
	b.Claim(1)
}
