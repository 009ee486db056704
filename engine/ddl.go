package engine

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/dml"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

// ddl executes a schema change: it builds the new catalog snapshot,
// changes the trees, rewrites the catalog tree and keeps the snapshot as
// the transaction's until commit.
func (s *Session) ddl(c *exec.Ctx, p plan.Statement) error {
	temp, err := ddlInTemp(c.Catalog, p)
	if err != nil {
		return err
	}
	base := c.Catalog.Main()
	if temp {
		if base = c.Catalog.Temp(); base == nil {
			base = catalog.NewTemp() // DROP … temp.x in a session without temp objects
		}
	}
	// DDL edits one schema, whose trees are in that schema's transaction.
	cat := base.Clone()
	cat.Version = base.Version + 1
	var changed bool
	switch p := p.(type) {
	case *plan.CreateTable:
		changed, err = createTable(c, cat, p)
	case *plan.CreateIndex:
		changed, err = createIndex(c, cat, p)
	case *plan.CreateView:
		changed, err = createView(cat, p)
	case *plan.Drop:
		if err = deleteBeforeDrop(c, base, p); err != nil {
			return err
		}
		changed, err = drop(c, cat, p, temp)
		if changed && err == nil && !temp && (p.Kind == grammar.ObjectTable || p.Kind == grammar.ObjectView) {
			err = s.dropTempTriggersOn(c, p.Name)
		}
	case *plan.AlterTable:
		if changed, err = alterTable(c, cat, p); err == nil && !temp {
			err = s.renameInTempTriggers(c, p)
		}
	case *plan.CreateTrigger:
		changed, err = createTrigger(cat, p)
	case *plan.CreateGraph:
		changed, err = createGraph(cat, p)
	case *plan.DropGraph:
		changed, err = dropGraph(cat, p)
	}
	if err != nil || !changed {
		return err
	}
	if err := saveCatalog(c.TxOf(temp), cat); err != nil {
		return err
	}
	if temp {
		s.txTempCat = cat
	} else {
		s.txCat = cat
	}
	return nil
}

// ddlInTemp reports whether a schema change is made in the temp schema.
// A DROP without a schema drops the temp object when there is one, as
// SQLite looks in temp first.
func ddlInTemp(cat *catalog.Catalog, p plan.Statement) (bool, error) {
	switch p := p.(type) {
	case *plan.CreateTable:
		return p.Table.Temp, nil
	case *plan.CreateIndex:
		return p.Index.Temp, nil
	case *plan.CreateView:
		return p.View.Temp, nil
	case *plan.CreateTrigger:
		return p.Trigger.Temp, nil
	case *plan.AlterTable:
		return p.Table.Temp, nil
	case *plan.Drop:
		switch {
		case p.Schema == "temp":
			return true, nil
		case p.Schema == "" && cat.Temp() != nil:
			return objectIn(cat.Temp(), p.Kind, p.Name), nil
		}
	}
	return false, nil
}

// objectIn reports whether cat has an object of kind named name (for DROP
// TABLE, a view too, so that DROP TABLE reports it rightly).
func objectIn(cat *catalog.Catalog, kind grammar.ObjectKind, name string) bool {
	switch kind {
	case grammar.ObjectIndex:
		return cat.Index(name) != nil
	case grammar.ObjectTrigger:
		return cat.Trigger(name) != nil
	}
	return cat.Table(name) != nil || cat.View(name) != nil
}

// nameTaken reports an object already named name.
func nameTaken(cat *catalog.Catalog, name string) error {
	kind := "table"
	switch {
	case cat.Index(name) != nil:
		kind = "index"
	case cat.View(name) != nil:
		kind = "view"
	case cat.Graph(name) != nil:
		kind = "property graph"
	}
	return errs.New(errs.CodeGeneric, "%s %s already exists", kind, name)
}

func createTable(c *exec.Ctx, cat *catalog.Catalog, p *plan.CreateTable) (bool, error) {
	if cat.Exists(p.Table.Name) {
		if p.IfNotExists {
			return false, nil
		}
		return false, nameTaken(cat, p.Table.Name)
	}
	tx := c.TxOf(cat.IsTemp())
	root, err := tx.CreateTree()
	if err != nil {
		return false, err
	}
	t := *p.Table
	t.Root = root
	cat.PutTable(&t)
	if t.Autoincrement && cat.Table(sequenceTable) == nil {
		if err := createSequenceTable(c, cat); err != nil {
			return false, err
		}
	}
	for _, ix := range p.Indexes {
		r, err := tx.CreateTree()
		if err != nil {
			return false, err
		}
		cp := *ix
		cp.Root = r
		cat.PutIndex(&cp)
	}
	if p.AsSelect != nil {
		targets := make([]int, len(t.Columns))
		for i := range targets {
			targets[i] = i
		}
		ins := &plan.Insert{Table: &t, Targets: targets, Source: p.AsSelect.Root,
			Defaults: make([]plan.Expr, len(t.Columns)), Or: plan.ConflictAbort}
		if _, err := dml.Insert(c, ins); err != nil {
			return false, err
		}
	}
	return true, nil
}

func createIndex(c *exec.Ctx, cat *catalog.Catalog, p *plan.CreateIndex) (bool, error) {
	if cat.Exists(p.Index.Name) {
		if p.IfNotExists {
			return false, nil
		}
		return false, nameTaken(cat, p.Index.Name)
	}
	t := cat.Table(p.Table.Name)
	if t == nil {
		return false, errs.New(errs.CodeGeneric, "no such table: main.%s", p.Table.Name)
	}
	root, err := c.TxOf(cat.IsTemp()).CreateTree()
	if err != nil {
		return false, err
	}
	ix := *p.Index
	ix.Root = root
	if err := dml.BuildIndex(c, t, &plan.IndexKeys{Index: &ix, Keys: p.Keys, Where: p.Where}); err != nil {
		return false, err
	}
	cat.PutIndex(&ix)
	return true, nil
}

func createTrigger(cat *catalog.Catalog, p *plan.CreateTrigger) (bool, error) {
	if cat.Trigger(p.Trigger.Name) != nil {
		if p.IfNotExists {
			return false, nil
		}
		return false, errs.New(errs.CodeGeneric, "trigger %s already exists", p.Trigger.Name)
	}
	tr := *p.Trigger
	cat.PutTrigger(&tr)
	return true, nil
}

func createView(cat *catalog.Catalog, p *plan.CreateView) (bool, error) {
	if cat.Exists(p.View.Name) {
		if p.IfNotExists {
			return false, nil
		}
		return false, nameTaken(cat, p.View.Name)
	}
	v := *p.View
	cat.PutView(&v)
	return true, nil
}

// sequenceTable keeps the largest rowid ever used by each AUTOINCREMENT
// table, as SQLite's sqlite_sequence does.
const sequenceTable = "sqlite_sequence"

// dropSequence deletes the sqlite_sequence row of a table being dropped,
// as SQLite's DROP TABLE does: a table created again under the name
// numbers its AUTOINCREMENT rowids from 1.
func dropSequence(c *exec.Ctx, cat *catalog.Catalog, table string) error {
	st := cat.Table(sequenceTable)
	if st == nil || strings.EqualFold(table, sequenceTable) {
		return nil
	}
	return deleteSystemRows(c.TxOf(cat.IsTemp()).Tree(st.Root), func(name, _ types.Value) bool {
		return strings.EqualFold(name.Text(), table)
	})
}

func createSequenceTable(c *exec.Ctx, cat *catalog.Catalog) error {
	_, err := createSystemTable(c, cat, "CREATE TABLE sqlite_sequence(name,seq)")
	return err
}

// createSystemTable creates one of SQLite's internal tables (whose
// sqlite_ names users may not create) from its CREATE text.
func createSystemTable(c *exec.Ctx, cat *catalog.Catalog, sql string) (*catalog.Table, error) {
	st, err := parseCreateTable(sql)
	if err != nil {
		return nil, err
	}
	t, _, err := plan.TableFromAST(st)
	if err != nil {
		return nil, err
	}
	t.Temp = cat.IsTemp()
	if t.Root, err = c.TxOf(t.Temp).CreateTree(); err != nil {
		return nil, err
	}
	cat.PutTable(t)
	return t, nil
}

var objectKinds = [...]string{"table", "index", "view", "trigger"}

func drop(c *exec.Ctx, cat *catalog.Catalog, p *plan.Drop, temp bool) (bool, error) {
	var found bool
	switch p.Kind {
	case grammar.ObjectTable:
		found = cat.Table(p.Name) != nil
		if !found && cat.View(p.Name) != nil {
			return false, errs.New(errs.CodeGeneric, "use DROP VIEW to delete view %s", p.Name)
		}
	case grammar.ObjectIndex:
		found = cat.Index(p.Name) != nil
	case grammar.ObjectView:
		found = cat.View(p.Name) != nil
		if !found && cat.Table(p.Name) != nil {
			return false, errs.New(errs.CodeGeneric, "use DROP TABLE to delete table %s", p.Name)
		}
	case grammar.ObjectTrigger:
		found = cat.Trigger(p.Name) != nil
	}
	if !found {
		if p.IfExists {
			return false, nil
		}
		return false, dropMissing(p)
	}
	tx := c.TxOf(temp)
	switch p.Kind {
	case grammar.ObjectTable:
		t := cat.Table(p.Name)
		if plan.IsSystemName(t.Name) && !strings.EqualFold(t.Name, statTable) {
			return false, errs.New(errs.CodeGeneric, "table %s may not be dropped", t.Name)
		}
		if err := graphsAllowDrop(cat, t); err != nil {
			return false, err
		}
		if strings.EqualFold(t.Name, statTable) {
			clearStats(cat)
		} else if err := dropStats(c, cat, t.Name, nil); err != nil {
			return false, err
		}
		if err := dropSequence(c, cat, t.Name); err != nil {
			return false, err
		}
		for _, ix := range cat.TableIndexes(t.Name) {
			if err := tx.DropTree(ix.Root); err != nil {
				return false, err
			}
			cat.Drop(ix.Name)
		}
		for _, tr := range cat.TableTriggers(t.Name) {
			cat.Drop(tr.Name)
		}
		if err := tx.DropTree(t.Root); err != nil {
			return false, err
		}
	case grammar.ObjectIndex:
		ix := cat.Index(p.Name)
		if ix.Auto {
			return false, errs.New(errs.CodeGeneric, "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped")
		}
		if err := dropStats(c, cat, ix.Table, ix); err != nil {
			return false, err
		}
		if err := tx.DropTree(ix.Root); err != nil {
			return false, err
		}
	}
	cat.Drop(p.Name)
	return true, nil
}

// dropMissing is the error of a DROP whose object does not exist.
func dropMissing(p *plan.Drop) error {
	name := p.Name
	if p.Schema != "" {
		name = p.Schema + "." + name
	}
	return errs.New(errs.CodeGeneric, "no such %s: %s", objectKinds[p.Kind], name)
}
