package catalog

import (
	"cmp"
	"encoding/binary"
	"errors"
	"slices"
	"sort"
	"strings"
)

// Catalog is one immutable snapshot of the schema.
type Catalog struct {
	// Version is the schema cookie this snapshot was loaded at or will be
	// committed with.
	Version uint64
	tables  map[string]*Table
	indexes map[string]*Index
	views   map[string]*View
	trigs   map[string]*Trigger
	graphs  map[string]*Graph // property graphs (main schema only); nil when none
	// seq orders objects as sqlite_master lists them (creation order).
	seq  map[string]int64
	next int64
	// isTemp marks a session's temp schema; temp and main are set on a
	// composed catalog only (see WithTemp).
	isTemp bool
	temp   *Catalog
	main   *Catalog
}

// New returns an empty catalog.
func New() *Catalog {
	return &Catalog{
		tables:  map[string]*Table{},
		indexes: map[string]*Index{},
		views:   map[string]*View{},
		trigs:   map[string]*Trigger{},
		seq:     map[string]int64{},
		next:    1,
	}
}

// Clone returns a shallow copy whose maps may be changed without affecting
// c. Objects are shared; replace them instead of mutating them.
func (c *Catalog) Clone() *Catalog {
	n := &Catalog{
		Version: c.Version,
		tables:  make(map[string]*Table, len(c.tables)),
		indexes: make(map[string]*Index, len(c.indexes)),
		views:   make(map[string]*View, len(c.views)),
		trigs:   make(map[string]*Trigger, len(c.trigs)),
		seq:     make(map[string]int64, len(c.seq)),
		next:    c.next,
		isTemp:  c.isTemp,
	}
	for k, v := range c.trigs {
		n.trigs[k] = v
	}
	for k, v := range c.tables {
		n.tables[k] = v
	}
	for k, v := range c.indexes {
		n.indexes[k] = v
	}
	for k, v := range c.views {
		n.views[k] = v
	}
	for k, v := range c.seq {
		n.seq[k] = v
	}
	if c.graphs != nil {
		n.graphs = make(map[string]*Graph, len(c.graphs))
		for k, v := range c.graphs {
			n.graphs[k] = v
		}
	}
	return n
}

// Table returns the table named name, or nil; temp first, then main.
func (c *Catalog) Table(name string) *Table {
	return lookup(c, name, func(c *Catalog) map[string]*Table { return c.tables })
}

// lookup finds name in the map of the temp schema, then in c's own.
func lookup[T any](c *Catalog, name string, m func(*Catalog) map[string]*T) *T {
	k := Lower(name)
	if c.temp != nil {
		if o := m(c.temp)[k]; o != nil {
			return o
		}
	}
	return m(c)[k]
}

// Index returns the index named name, or nil; temp first, then main.
func (c *Catalog) Index(name string) *Index {
	return lookup(c, name, func(c *Catalog) map[string]*Index { return c.indexes })
}

// Trigger returns the trigger named name, or nil; temp first, then main.
func (c *Catalog) Trigger(name string) *Trigger {
	return lookup(c, name, func(c *Catalog) map[string]*Trigger { return c.trigs })
}

// PutTrigger adds or replaces tr.
func (c *Catalog) PutTrigger(tr *Trigger) {
	k := Lower(tr.Name)
	c.trigs[k] = tr
	c.order(k)
}

// TableTriggers returns the triggers on the table or view named table as
// name resolution finds it (temp first), in creation order. On a composed
// catalog, a main table's list starts with the temp triggers on it, which
// SQLite fires first.
func (c *Catalog) TableTriggers(table string) []*Trigger {
	if c.temp != nil {
		k := Lower(table)
		if c.temp.tables[k] != nil || c.temp.views[k] != nil {
			return c.temp.TableTriggers(table)
		}
		return append(c.temp.TriggersOnMain(table), c.triggersOn(table, false)...)
	}
	return c.triggersOn(table, false)
}

// triggersOn returns c's own triggers on table whose OnMain is onMain, in
// creation order.
func (c *Catalog) triggersOn(table string, onMain bool) []*Trigger {
	var out []*Trigger
	for _, tr := range c.trigs {
		if equalFold(tr.Table, table) && tr.OnMain == onMain {
			out = append(out, tr)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)]
	})
	return out
}

// View returns the view named name, or nil; temp first, then main.
func (c *Catalog) View(name string) *View {
	return lookup(c, name, func(c *Catalog) map[string]*View { return c.views })
}

// Exists reports whether any object is named name.
func (c *Catalog) Exists(name string) bool {
	k := Lower(name)
	_, ok := c.seq[k]
	_, trig := c.trigs[k]
	return ok && !trig
}

// PutTable adds or replaces t.
func (c *Catalog) PutTable(t *Table) {
	k := Lower(t.Name)
	c.tables[k] = t
	c.order(k)
}

// PutIndex adds or replaces ix.
func (c *Catalog) PutIndex(ix *Index) {
	k := Lower(ix.Name)
	c.indexes[k] = ix
	c.order(k)
}

// PutView adds or replaces v.
func (c *Catalog) PutView(v *View) {
	k := Lower(v.Name)
	c.views[k] = v
	c.order(k)
}

func (c *Catalog) order(k string) {
	if _, ok := c.seq[k]; !ok {
		c.seq[k] = c.next
		c.next++
	}
}

// Position returns the place of the object named name in sqlite_master's
// order, and whether it has one.
func (c *Catalog) Position(name string) (int64, bool) {
	p, ok := c.seq[Lower(name)]
	return p, ok
}

// SetPosition gives the object named name the place p in sqlite_master's
// order: a renamed object keeps its row's place, as SQLite updates the
// row in place.
func (c *Catalog) SetPosition(name string, p int64) { c.seq[Lower(name)] = p }

// Drop removes the object named name (table, index, view, trigger or
// property graph).
func (c *Catalog) Drop(name string) {
	k := Lower(name)
	delete(c.tables, k)
	delete(c.indexes, k)
	delete(c.views, k)
	delete(c.trigs, k)
	delete(c.graphs, k)
	delete(c.seq, k)
}

// TableIndexes returns the indexes on the table named table as name
// resolution finds it (temp first), in creation order.
func (c *Catalog) TableIndexes(table string) []*Index {
	if c.temp != nil && c.temp.tables[Lower(table)] != nil {
		return c.temp.ownIndexes(table)
	}
	return c.ownIndexes(table)
}

// ownIndexes returns c's own indexes on table, in creation order.
func (c *Catalog) ownIndexes(table string) []*Index {
	n := 0
	for _, ix := range c.indexes {
		if equalFold(ix.Table, table) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]*Index, 0, n)
	for _, ix := range c.indexes {
		if equalFold(ix.Table, table) {
			out = append(out, ix)
		}
	}
	// The planner asks for every scanned table's: no reflection-based
	// sort.Slice, whose swapper allocates.
	slices.SortFunc(out, func(a, b *Index) int { return cmp.Compare(c.seq[Lower(a.Name)], c.seq[Lower(b.Name)]) })
	return out
}

// Children returns c's tables with a foreign key naming table as its
// parent, in creation order.
func (c *Catalog) Children(table string) []*Table {
	var out []*Table
	for _, t := range c.tables {
		if t.Virtual {
			continue
		}
		for _, fk := range t.ForeignKeys {
			if strings.EqualFold(fk.RefTable, table) {
				out = append(out, t)
				break
			}
		}
	}
	if len(out) > 1 {
		sort.Slice(out, func(i, j int) bool {
			return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)]
		})
	}
	return out
}

// Entries returns the sqlite_master rows in creation order.
func (c *Catalog) Entries() []Entry {
	out := make([]Entry, 0, len(c.seq))
	for _, t := range c.tables {
		if !t.Virtual {
			out = append(out, Entry{Type: "table", Name: t.Name, TblName: t.Name, Root: t.Root, SQL: t.SQL})
		}
	}
	for _, ix := range c.indexes {
		out = append(out, Entry{Type: "index", Name: ix.Name, TblName: ix.Table, Root: ix.Root, SQL: ix.SQL})
	}
	for _, v := range c.views {
		out = append(out, Entry{Type: "view", Name: v.Name, TblName: v.Name, SQL: v.SQL})
	}
	for _, tr := range c.trigs {
		out = append(out, Entry{Type: "trigger", Name: tr.Name, TblName: tr.Table, SQL: tr.SQL})
	}
	for _, g := range c.graphs {
		out = append(out, Entry{Type: GraphEntryType, Name: g.Name, TblName: g.Name, SQL: g.SQL})
	}
	sort.Slice(out, func(i, j int) bool {
		return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)]
	})
	return out
}

// Entry is one persisted catalog object: a sqlite_master row.
type Entry struct {
	Type    string // "table", "index", "view", "trigger", GraphEntryType
	Name    string
	TblName string
	Root    uint32
	SQL     string
}

// ErrBadEntry is returned by DecodeEntry for bytes that are not an entry.
var ErrBadEntry = errors.New("catalog: malformed catalog entry")

// Encode returns the entry's persistent bytes.
func (e Entry) Encode() []byte {
	b := make([]byte, 0, 16+len(e.Type)+len(e.Name)+len(e.TblName)+len(e.SQL))
	for _, s := range []string{e.Type, e.Name, e.TblName, e.SQL} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return binary.AppendUvarint(b, uint64(e.Root))
}

// DecodeEntry parses bytes written by Encode.
func DecodeEntry(b []byte) (Entry, error) {
	var f [4]string
	for i := range f {
		n, w := binary.Uvarint(b)
		if w <= 0 || uint64(len(b)-w) < n {
			return Entry{}, ErrBadEntry
		}
		f[i] = string(b[w : w+int(n)])
		b = b[w+int(n):]
	}
	root, w := binary.Uvarint(b)
	if w <= 0 || root > 1<<32-1 {
		return Entry{}, ErrBadEntry
	}
	return Entry{Type: f[0], Name: f[1], TblName: f[2], SQL: f[3], Root: uint32(root)}, nil
}
