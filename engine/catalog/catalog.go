package catalog

import (
	"encoding/binary"
	"errors"
	"sort"
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
	// seq orders objects as sqlite_master lists them (creation order).
	seq  map[string]int64
	next int64
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
	return n
}

// Table returns the table named name, or nil.
func (c *Catalog) Table(name string) *Table { return c.tables[Lower(name)] }

// Index returns the index named name, or nil.
func (c *Catalog) Index(name string) *Index { return c.indexes[Lower(name)] }

// Trigger returns the trigger named name, or nil.
func (c *Catalog) Trigger(name string) *Trigger { return c.trigs[Lower(name)] }

// PutTrigger adds or replaces tr.
func (c *Catalog) PutTrigger(tr *Trigger) {
	k := Lower(tr.Name)
	c.trigs[k] = tr
	c.order(k)
}

// TableTriggers returns the triggers on table, in creation order.
func (c *Catalog) TableTriggers(table string) []*Trigger {
	var out []*Trigger
	for _, tr := range c.trigs {
		if equalFold(tr.Table, table) {
			out = append(out, tr)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)]
	})
	return out
}

// View returns the view named name, or nil.
func (c *Catalog) View(name string) *View { return c.views[Lower(name)] }

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

// Drop removes the object named name (table, index or view).
func (c *Catalog) Drop(name string) {
	k := Lower(name)
	delete(c.tables, k)
	delete(c.indexes, k)
	delete(c.views, k)
	delete(c.trigs, k)
	delete(c.seq, k)
}

// TableIndexes returns the indexes on table, in creation order.
func (c *Catalog) TableIndexes(table string) []*Index {
	var out []*Index
	for _, ix := range c.indexes {
		if equalFold(ix.Table, table) {
			out = append(out, ix)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)]
	})
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
	sort.Slice(out, func(i, j int) bool {
		return c.seq[Lower(out[i].Name)] < c.seq[Lower(out[j].Name)]
	})
	return out
}

// Entry is one persisted catalog object: a sqlite_master row.
type Entry struct {
	Type    string // "table", "index", "view", "trigger"
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
