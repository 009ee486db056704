package engine

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/exec"
	"github.com/ladybugsql/ladybug/engine/keycodec"
	"github.com/ladybugsql/ladybug/engine/plan"
	"github.com/ladybugsql/ladybug/engine/txn"
	"github.com/ladybugsql/ladybug/grammar"
)

// Meta slots of the file header the engine uses (see storage).
const (
	metaCatalogRoot   = 0
	metaSchemaCookie  = 1
	metaUserVersion   = 2
	metaApplicationID = 3
)

// loadCatalog reads the catalog tree of tx into a snapshot: one entry per
// object, rebuilt from its CREATE text, tables first.
func loadCatalog(tx *txn.Tx) (*catalog.Catalog, error) { return loadCatalogInto(tx, catalog.New()) }

// loadTempCatalog reads a temp store's catalog tree into a temp schema.
func loadTempCatalog(tx *txn.Tx) (*catalog.Catalog, error) {
	return loadCatalogInto(tx, catalog.NewTemp())
}

// onMainRoot is the root stored for a temp trigger on a main table:
// triggers have no tree, so the slot tells the trigger's table's schema.
const onMainRoot = 1

func loadCatalogInto(tx *txn.Tx, cat *catalog.Catalog) (*catalog.Catalog, error) {
	cat.Version = tx.Meta(metaSchemaCookie)
	root := uint32(tx.Meta(metaCatalogRoot))
	if root == 0 {
		return cat, nil
	}
	entries, err := readEntries(tx, root)
	if err != nil {
		return nil, err
	}
	roots := map[string]uint32{}
	for _, e := range entries {
		roots[catalog.Lower(e.Name)] = e.Root
	}
	for _, e := range entries {
		if e.Type == "table" {
			if err := loadTable(cat, e, roots); err != nil {
				return nil, err
			}
		}
	}
	for _, e := range entries {
		switch {
		case e.Type == "index" && e.SQL != "":
			if err := loadIndex(cat, e); err != nil {
				return nil, err
			}
		case e.Type == "view":
			if err := loadView(cat, e); err != nil {
				return nil, err
			}
		case e.Type == catalog.GraphEntryType:
			if err := loadGraph(cat, e); err != nil {
				return nil, err
			}
		case e.Type == "trigger":
			cat.PutTrigger(&catalog.Trigger{Name: e.Name, Table: e.TblName, SQL: e.SQL,
				Temp: cat.IsTemp(), OnMain: cat.IsTemp() && e.Root == onMainRoot})
		}
	}
	if err := loadStats(tx, cat); err != nil {
		return nil, err
	}
	return cat, nil
}

func readEntries(tx *txn.Tx, root uint32) ([]catalog.Entry, error) {
	cur := tx.Tree(root).Cursor()
	defer cur.Close()
	var out []catalog.Entry
	for ok := cur.First(); ok; ok = cur.Next() {
		v, err := cur.Value()
		if err != nil {
			return nil, err
		}
		e, err := catalog.DecodeEntry(v)
		if err != nil {
			return nil, errs.Wrap(errs.CodeCorrupt, err)
		}
		out = append(out, e)
	}
	return out, cur.Err()
}

func corruptSchema(name string, err error) error {
	return &errs.Error{Code: errs.CodeCorrupt, ExtendedCode: 11, Msg: "malformed database schema (" + name + "): " + err.Error(), Err: err}
}

func parseOne(sql string) (grammar.Statement, error) {
	stmts, err := grammar.Parse(sql)
	if err != nil {
		return nil, syntaxError(err)
	}
	if len(stmts) != 1 {
		return nil, errs.New(errs.CodeCorrupt, "expected one statement")
	}
	return stmts[0], nil
}

func loadTable(cat *catalog.Catalog, e catalog.Entry, roots map[string]uint32) error {
	st, err := parseOne(e.SQL)
	if err != nil {
		return corruptSchema(e.Name, err)
	}
	ct, ok := st.(*grammar.CreateTableStmt)
	if !ok {
		return corruptSchema(e.Name, errs.New(errs.CodeCorrupt, "not a CREATE TABLE"))
	}
	var t *catalog.Table
	var autos []*catalog.Index
	if ct.AsSelect != nil {
		return corruptSchema(e.Name, errs.New(errs.CodeCorrupt, "stored CREATE TABLE AS"))
	}
	if t, autos, err = plan.TableFromAST(ct); err != nil {
		return corruptSchema(e.Name, err)
	}
	t.Name, t.Root, t.SQL, t.Temp = e.Name, e.Root, e.SQL, cat.IsTemp()
	cat.PutTable(t)
	for _, ix := range autos {
		ix.Root, ix.Temp = roots[catalog.Lower(ix.Name)], t.Temp
		cat.PutIndex(ix)
	}
	return nil
}

func loadIndex(cat *catalog.Catalog, e catalog.Entry) error {
	st, err := parseOne(e.SQL)
	if err != nil {
		return corruptSchema(e.Name, err)
	}
	ci, ok := st.(*grammar.CreateIndexStmt)
	if !ok {
		return corruptSchema(e.Name, errs.New(errs.CodeCorrupt, "not a CREATE INDEX"))
	}
	bound, err := plan.NewBinder(cat, exec.ConstEvaluator{}).Bind(ci)
	if err != nil {
		return corruptSchema(e.Name, err)
	}
	ix := bound.(*plan.CreateIndex).Index
	ix.Root = e.Root
	cat.PutIndex(ix)
	return nil
}

func loadView(cat *catalog.Catalog, e catalog.Entry) error {
	st, err := parseOne(e.SQL)
	if err != nil {
		return corruptSchema(e.Name, err)
	}
	cv, ok := st.(*grammar.CreateViewStmt)
	if !ok {
		return corruptSchema(e.Name, errs.New(errs.CodeCorrupt, "not a CREATE VIEW"))
	}
	cat.PutView(&catalog.View{Name: e.Name, Columns: cv.Columns, SQL: e.SQL, Temp: cat.IsTemp()})
	return nil
}

// saveCatalog rewrites the catalog tree with cat's entries and bumps the
// schema cookie to cat.Version. The catalog is small, so rewriting it whole
// keeps DDL simple and atomic with the transaction.
func saveCatalog(tx *txn.Tx, cat *catalog.Catalog) error {
	root := uint32(tx.Meta(metaCatalogRoot))
	if root == 0 {
		r, err := tx.CreateTree()
		if err != nil {
			return err
		}
		root = r
		if err := tx.SetMeta(metaCatalogRoot, uint64(root)); err != nil {
			return err
		}
	} else if err := tx.ClearTree(root); err != nil {
		return err
	}
	tree := tx.Tree(root)
	for i, e := range cat.Entries() {
		if e.Type == "trigger" && cat.Trigger(e.Name).OnMain {
			e.Root = onMainRoot
		}
		if err := tree.Put(keycodec.RowidKey(int64(i+1)), e.Encode()); err != nil {
			return err
		}
	}
	return tx.SetMeta(metaSchemaCookie, cat.Version)
}
