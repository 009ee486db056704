package factorized

import "fmt"

// checkSpan bounds how many bytes past the cursor check reads, so checked
// builds stay fast enough for the whole test suite.
const checkSpan = 256

// check panics if the block's bookkeeping is inconsistent. It runs only
// with -tags invariants: a violation is a bug in this package, never bad
// input.
func (b *Block) check() {
	if !invariants {
		return
	}
	if b.used < 0 || b.used > b.zeroed || b.zeroed > len(b.buf) || b.used > b.dirty || b.dirty > len(b.buf) {
		panic(fmt.Sprintf("factorized: block invariant broken: used %d zeroed %d dirty %d len %d",
			b.used, b.zeroed, b.dirty, len(b.buf)))
	}
	for i := b.used; i < min(b.zeroed, b.used+checkSpan); i++ {
		if b.buf[i] != 0 {
			panic(fmt.Sprintf("factorized: block byte %d between cursor %d and frontier %d is %#x", i, b.used, b.zeroed, b.buf[i]))
		}
	}
}
