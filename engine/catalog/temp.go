package catalog

// A session's TEMP objects live in a schema of their own, the temp
// catalog, which only that session sees. Statements of the session run
// against a composed catalog: main's snapshot with the temp catalog laid
// over it, so that an unqualified name resolves in temp first, then in
// main, as in SQLite. Schema changes are made on the two parts (Main and
// Temp), never on the composed catalog, which shares main's maps.

// NewTemp returns an empty temp schema.
func NewTemp() *Catalog {
	c := New()
	c.isTemp = true
	return c
}

// IsTemp reports whether c is a temp schema (not a composed catalog).
func (c *Catalog) IsTemp() bool { return c.isTemp }

// WithTemp returns main with temp laid over it. The result is read-only:
// it shares main's maps. With no temp schema (nil) it is main itself, so
// sessions that never made a temp object share plans.
func (c *Catalog) WithTemp(temp *Catalog) *Catalog {
	if temp == nil {
		return c
	}
	main := c.Main()
	n := *main
	n.temp, n.main = temp, main
	return &n
}

// Main returns the main schema of a composed catalog, or c itself.
func (c *Catalog) Main() *Catalog {
	if c.main != nil {
		return c.main
	}
	return c
}

// Temp returns the temp schema laid over a composed catalog, c itself
// when it is a temp schema, or nil.
func (c *Catalog) Temp() *Catalog {
	if c.isTemp {
		return c
	}
	return c.temp
}

// SchemaOf returns the schema holding t: the temp schema for a temp
// table, else main.
func (c *Catalog) SchemaOf(t *Table) *Catalog {
	if t != nil && t.Temp {
		if tc := c.Temp(); tc != nil {
			return tc
		}
	}
	return c.Main()
}

// IndexesOf returns the indexes of t in its own schema, in creation order
// (a temp table may share its name with a main one).
func (c *Catalog) IndexesOf(t *Table) []*Index {
	return c.SchemaOf(t).ownIndexes(t.Name)
}

// TriggersOnMain returns the temp triggers of temp schema c on main's
// table (or view) named table, in creation order.
func (c *Catalog) TriggersOnMain(table string) []*Trigger { return c.triggersOn(table, true) }

// TriggersOf returns the triggers on t (a table, or a view described as
// one) in its own schema's order: a temp table's temp triggers, or for a
// main table the temp triggers on it first (SQLite fires them first), then
// main's.
func (c *Catalog) TriggersOf(t *Table) []*Trigger {
	if t.Temp {
		if tc := c.Temp(); tc != nil {
			return tc.triggersOn(t.Name, false)
		}
		return nil
	}
	var out []*Trigger
	if tc := c.Temp(); tc != nil {
		out = tc.TriggersOnMain(t.Name)
	}
	return append(out, c.Main().triggersOn(t.Name, false)...)
}
