package plan

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/grammar"
)

// The schema qualifiers a name may carry: "main", "temp" (the session's
// TEMP objects) and none, which searches temp first, then main.

// emptyTemp stands for the temp schema of a session that has none.
var emptyTemp = catalog.NewTemp()

// IsTempSchema reports whether a schema qualifier names the temp schema.
func IsTempSchema(schema string) bool { return eqFold(schema, "temp") }

// schemaCat returns the catalog a schema qualifier searches: b.cat for
// none, main's or temp's part for "main" or "temp".
func (b *Binder) schemaCat(schema string) (*catalog.Catalog, error) {
	switch {
	case schema == "":
		return b.cat, nil
	case eqFold(schema, "main"):
		return b.cat.Main(), nil
	case IsTempSchema(schema):
		if t := b.cat.Temp(); t != nil {
			return t, nil
		}
		return emptyTemp, nil
	}
	return nil, bindErr("unknown database %s", schema)
}

// tableCat is schemaCat for a table reference, whose unknown schema is
// reported as a missing table, as SQLite does.
func (b *Binder) tableCat(tn *grammar.TableName) (*catalog.Catalog, error) {
	cat, err := b.schemaCat(tn.Schema)
	if err != nil {
		return nil, bindErr("no such table: %s.%s", tn.Schema, tn.Name)
	}
	return cat, nil
}

// TempMasterTable is the catalog-provided sqlite_temp_master: the session's
// temp schema listed as sqlite_master lists main.
var TempMasterTable = &catalog.Table{Name: "sqlite_temp_master", RowidCol: -1, Virtual: true,
	Columns: MasterTable.Columns}

// virtualIn returns the catalog-provided table name names under schema:
// sqlite_master of temp is sqlite_temp_master, which main does not have.
func virtualIn(schema, name string) *catalog.Table {
	t := VirtualTable(name)
	switch {
	case t == nil || schema == "":
		return t
	case IsTempSchema(schema):
		return TempMasterTable
	case t == TempMasterTable:
		return nil
	}
	return t
}

// tempTableRefs reports the first table a statement names with the temp
// qualifier, "" when none: an object of main may not depend on one.
func tempTableRefs(n grammar.Node) string {
	found := ""
	grammar.Walk(n, func(x grammar.Node) bool {
		if found != "" {
			return false
		}
		switch x := x.(type) {
		case *grammar.TableName:
			if IsTempSchema(x.Schema) {
				found = x.Name
			}
		case *grammar.TableFunc:
			if IsTempSchema(x.Schema) {
				found = x.Name
			}
		}
		return found == ""
	})
	return found
}

// checkMainObject fails when an object of main (kind "view" or "trigger")
// names a temp object, with SQLite's error.
func checkMainObject(kind, name string, n grammar.Node) error {
	if tempTableRefs(n) != "" {
		return bindErr("%s %s cannot reference objects in database temp", kind, name)
	}
	return nil
}

// withMain runs fn with name resolution limited to main, the way SQLite
// binds the body of a view or trigger of main: its names were fixed to
// main when it was created.
func (b *Binder) withMain(fn func() error) error {
	if b.cat.Temp() == nil {
		return fn()
	}
	saved, savedFixed := b.cat, b.fixedMain
	b.cat, b.fixedMain = b.cat.Main(), true
	defer func() { b.cat, b.fixedMain = saved, savedFixed }()
	return fn()
}

// NewObjectBinder returns a binder for the body of a view or trigger over
// cat: a temp object's names resolve as any statement's, those of an
// object of main in main only.
func NewObjectBinder(cat *catalog.Catalog, temp bool, eval Evaluator) *Binder {
	b := NewBinder(cat, eval)
	if !temp && cat.Temp() != nil {
		b.cat, b.fixedMain = cat.Main(), true
	}
	return b
}

// OpensTemp reports whether the statements bound so far read the temp
// schema itself (sqlite_temp_master, PRAGMA temp.x): SQLite opens a
// connection's temp database then, and lists it in PRAGMA database_list.
func (b *Binder) OpensTemp() bool { return b.opensTemp }
