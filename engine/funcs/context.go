package funcs

import (
	"regexp"
	"time"
	"unsafe"

	"github.com/ladybugsql/ladybug/engine/types"
)

// Env is the session state some functions read: changes(),
// total_changes(), last_insert_rowid() and the clock behind 'now',
// CURRENT_TIMESTAMP and now(). Now must return the same instant for the
// whole statement, as SQLite does.
type Env interface {
	Changes() int64
	TotalChanges() int64
	LastInsertRowid() int64
	Now() time.Time
}

// Context is the per-evaluator state scalar functions run with: the Env
// and an append-only arena their TEXT and BLOB results live in.
//
// Results that allocate (upper, replace, printf…) point into the arena and
// stay valid until Reset; the executor calls Reset between batches, after
// copying out anything it keeps. A Context is not safe for concurrent use;
// use one per goroutine. A nil *Context works, with no Env and fresh
// allocations per result.
type Context struct {
	Env Env
	// MaxLen, when positive, lowers the largest TEXT or BLOB a function
	// may produce below MaxLength (the connection's length limit).
	MaxLen int64
	// MaxPattern, when positive, lowers the longest LIKE or GLOB pattern
	// below MaxPatternLength.
	MaxPattern int
	arena      []byte
	re         map[string]*regexp.Regexp // REGEXP cache, bounded by maxRegexps
}

// Checker is implemented by an Env that can tell a long-running function
// to stop: Check returns the statement's interrupt error once its context
// is done.
type Checker interface{ Check() error }

// check returns the Env's Check, or nil when it has none.
func (c *Context) check() func() error {
	if c == nil {
		return nil
	}
	if ch, ok := c.Env.(Checker); ok {
		return ch.Check
	}
	return nil
}

// NewContext returns a Context reading session state from env (may be nil).
func NewContext(env Env) *Context { return &Context{Env: env} }

const (
	arenaChunk = 32 << 10
	arenaFirst = 256 // the first chunk's size (see buf)
	maxRegexps = 32
)

// Reset recycles the arena: results returned before are invalid after.
func (c *Context) Reset() {
	if c != nil {
		c.arena = c.arena[:0]
	}
}

// buf returns an empty slice with capacity n at the arena's end. The
// caller appends its result and hands it to text or blob, which commit it;
// appending past n reallocates, leaving the arena untouched.
func (c *Context) buf(n int) []byte {
	if c == nil || n > arenaChunk/4 {
		return make([]byte, 0, n)
	}
	if cap(c.arena)-len(c.arena) < n {
		// A new chunk; results in the old one keep it alive. Chunks
		// start small and double up to arenaChunk, so a function run
		// over a few rows (a constant folded at prepare time, a one-off
		// statement) allocates for those rows, not a whole chunk.
		size := min(arenaChunk, max(2*cap(c.arena), arenaFirst))
		for size < n {
			size *= 2
		}
		c.arena = make([]byte, 0, size)
	}
	l := len(c.arena)
	return c.arena[l : l : l+n]
}

// commit advances the arena past b when b was built in place by buf.
func (c *Context) commit(b []byte) {
	if c == nil || len(b) == 0 {
		return
	}
	l := len(c.arena)
	if cap(c.arena)-l >= len(b) && unsafe.SliceData(c.arena[l:cap(c.arena)]) == unsafe.SliceData(b) {
		c.arena = c.arena[:l+len(b)]
	}
}

// text commits b and returns it as a TEXT value aliasing it.
func (c *Context) text(b []byte) types.Value {
	c.commit(b)
	return types.NewText(unsafeString(b))
}

// blob commits b and returns it as a BLOB value aliasing it.
func (c *Context) blob(b []byte) types.Value {
	c.commit(b)
	return types.NewBlob(b)
}

// regexp returns the compiled pattern, from the cache when possible.
func (c *Context) regexp(pattern string) (*regexp.Regexp, error) {
	if c != nil {
		if re, ok := c.re[pattern]; ok {
			return re, nil
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, errf("%v", err)
	}
	if c != nil {
		if c.re == nil || len(c.re) >= maxRegexps {
			c.re = make(map[string]*regexp.Regexp)
		}
		c.re[pattern] = re
	}
	return re, nil
}

// Locator is implemented by an Env that fixes the zone the 'localtime'
// and 'utc' date modifiers use; without it they use time.Local.
type Locator interface {
	Location() *time.Location
}

// location returns the zone for 'localtime'.
func (c *Context) location() *time.Location {
	if c != nil && c.Env != nil {
		if l, ok := c.Env.(Locator); ok {
			return l.Location()
		}
	}
	return time.Local
}

// now returns the statement time, or the wall clock without an Env.
func (c *Context) now() time.Time {
	if c != nil && c.Env != nil {
		return c.Env.Now()
	}
	return time.Now()
}

func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
