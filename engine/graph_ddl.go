package engine

import (
	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/errs"
	"github.com/ladybugsql/ladybug/engine/plan"
)

// Property graphs are schema metadata only: CREATE, ALTER and DROP
// PROPERTY GRAPH change the catalog and its sqlite_master rows (type
// "property graph"), nothing else. A table a graph is defined over cannot
// be dropped, and an ALTER TABLE that leaves a graph's definition
// unresolvable (a renamed table or a dropped key column) fails, as it does
// for views.

func createGraph(cat *catalog.Catalog, p *plan.CreateGraph) (bool, error) {
	if p.Replace {
		cat.PutGraph(p.Graph)
		return true, nil
	}
	if cat.Exists(p.Graph.Name) {
		if p.IfNotExists {
			return false, nil
		}
		if cat.Graph(p.Graph.Name) != nil {
			return false, errs.New(errs.CodeGeneric, "property graph %s already exists", p.Graph.Name)
		}
		return false, nameTaken(cat, p.Graph.Name)
	}
	cat.PutGraph(p.Graph)
	return true, nil
}

func dropGraph(cat *catalog.Catalog, p *plan.DropGraph) (bool, error) {
	if cat.Graph(p.Name) == nil {
		if p.IfExists {
			return false, nil
		}
		return false, errs.New(errs.CodeGeneric, "no such property graph: %s", p.Name)
	}
	cat.Drop(p.Name)
	return true, nil
}

// graphsAllowDrop refuses to drop a table a property graph uses.
func graphsAllowDrop(cat *catalog.Catalog, t *catalog.Table) error {
	if gs := cat.GraphsUsing(t.Name); len(gs) > 0 && !t.Temp {
		return errs.New(errs.CodeGeneric, "cannot drop table %s: property graph %s uses it (DROP PROPERTY GRAPH %s first)", t.Name, gs[0].Name, gs[0].Name)
	}
	return nil
}

// loadGraph rebuilds a property graph from its sqlite_master row; the
// tables are loaded already.
func loadGraph(cat *catalog.Catalog, e catalog.Entry) error {
	def, err := plan.ParseGraph(e.SQL)
	if err != nil {
		return corruptSchema(e.Name, err)
	}
	g, err := plan.GraphFromAST(cat, def)
	if err != nil {
		return corruptSchema(e.Name, err)
	}
	g.Name, g.SQL = e.Name, e.SQL
	cat.PutGraph(g)
	return nil
}

// checkStoredGraph resolves a graph's definition again against cat.
func checkStoredGraph(cat *catalog.Catalog, e catalog.Entry) error {
	def, err := plan.ParseGraph(e.SQL)
	if err != nil {
		return err
	}
	_, err = plan.GraphFromAST(cat.Main(), def)
	return err
}
