package engine

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
)

// reindex runs REINDEX, resolving its name as SQLite does: none means
// every index; an unqualified collation name (BINARY, NOCASE, RTRIM) the
// indexes with a key column in that collation; else a table's (or view's)
// indexes, else the index of that name. Each chosen index is emptied and
// refilled from its table's rows.
func reindex(c *exec.Ctx, p *plan.Reindex) error {
	schemas, err := reindexSchemas(c.Catalog, p.Schema)
	if err != nil {
		return err
	}
	coll := ""
	if p.Name != "" && p.Schema == "" {
		if _, ok := types.CollationByName(p.Name); ok {
			coll = p.Name
		}
	}
	if p.Name == "" || coll != "" {
		for _, sc := range schemas {
			for _, e := range sc.Entries() {
				if t := sc.Table(e.Name); e.Type == "table" && t != nil {
					if err := rebuildIndexes(c, t, func(ix *catalog.Index) bool { return coll == "" || usesCollation(t, ix, coll) }); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	switch strings.ToLower(p.Name) {
	case "sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema":
		return nil // the schema tables have no index
	}
	for _, sc := range schemas {
		if t := sc.Table(p.Name); t != nil {
			return rebuildIndexes(c, t, func(*catalog.Index) bool { return true })
		}
		if sc.View(p.Name) != nil {
			return nil
		}
		if ix := sc.Index(p.Name); ix != nil {
			t := sc.Table(ix.Table)
			if t == nil {
				break
			}
			return rebuildIndexes(c, t, func(x *catalog.Index) bool { return x == ix })
		}
	}
	return errs.New(errs.CodeGeneric, "unable to identify the object to be reindexed")
}

// reindexSchemas lists the schemas REINDEX searches: temp then main for
// an unqualified name, else the one named.
func reindexSchemas(cat *catalog.Catalog, schema string) ([]*catalog.Catalog, error) {
	temp := cat.Temp()
	switch {
	case schema == "":
		if temp != nil {
			return []*catalog.Catalog{temp, cat.Main()}, nil
		}
		return []*catalog.Catalog{cat.Main()}, nil
	case strings.EqualFold(schema, "main"):
		return []*catalog.Catalog{cat.Main()}, nil
	case plan.IsTempSchema(schema):
		if temp != nil {
			return []*catalog.Catalog{temp}, nil
		}
		return nil, nil
	}
	return nil, errs.New(errs.CodeGeneric, "unknown database %s", schema)
}

// rebuildIndexes refills the indexes of t that keep accepts.
func rebuildIndexes(c *exec.Ctx, t *catalog.Table, keep func(*catalog.Index) bool) error {
	keys, err := plan.NewBinder(c.Catalog, nil).IndexKeysFor(t)
	if err != nil {
		return err
	}
	for _, ik := range keys {
		if !keep(ik.Index) {
			continue
		}
		if err := dml.RebuildIndex(c, t, ik); err != nil {
			return err
		}
	}
	return nil
}

// usesCollation reports whether a key column of ix compares with the
// collation named coll (its own COLLATE, else its column's, else BINARY).
func usesCollation(t *catalog.Table, ix *catalog.Index, coll string) bool {
	for _, ic := range ix.Columns {
		name := ic.Collate
		if name == "" && ic.Col >= 0 && ic.Col < len(t.Columns) {
			name = t.Columns[ic.Col].Collate
		}
		if name == "" {
			name = "BINARY"
		}
		if strings.EqualFold(name, coll) {
			return true
		}
	}
	return false
}
