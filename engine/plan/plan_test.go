package plan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
	"github.com/ladybugsql/ladybug/grammar"
)

func testCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	cat := catalog.New()
	st, err := grammar.Parse("CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT UNIQUE, c REAL)")
	require.NoError(t, err)
	tbl, autos, err := TableFromAST(st[0].(*grammar.CreateTableStmt))
	require.NoError(t, err)
	cat.PutTable(tbl)
	for _, ix := range autos {
		cat.PutIndex(ix)
	}
	return cat
}

func bindOne(t *testing.T, cat *catalog.Catalog, sql string) (Statement, error) {
	t.Helper()
	st, err := grammar.Parse(sql)
	require.NoError(t, err)
	return NewBinder(cat, noFolding{}).Bind(st[0])
}

// findScan returns the first Scan under n.
func findScan(n Node) *Scan {
	switch x := n.(type) {
	case *Scan:
		return x
	case *Filter:
		return findScan(x.Input)
	case *Project:
		return findScan(x.Input)
	case *Limit:
		return findScan(x.Input)
	case *Sort:
		return findScan(x.Input)
	case *Aggregate:
		return findScan(x.Input)
	}
	return nil
}

func TestBinder_Bind_RowidLookupRule(t *testing.T) {
	p, err := bindOne(t, testCatalog(t), "SELECT a FROM t WHERE id = ?")
	require.NoError(t, err)
	s := findScan(p.(*Query).Root)
	require.NotNil(t, s.Lookup)
	require.NotNil(t, s.Lookup.Eq)
}

func TestBinder_Bind_IndexLookupRule(t *testing.T) {
	p, err := bindOne(t, testCatalog(t), "SELECT a FROM t WHERE b = 'x'")
	require.NoError(t, err)
	s := findScan(p.(*Query).Root)
	require.NotNil(t, s.Index)
	require.Equal(t, "sqlite_autoindex_t_1", s.Index.Index.Name)
}

func TestBinder_Bind_PrunesScanColumns(t *testing.T) {
	p, err := bindOne(t, testCatalog(t), "SELECT sum(c) FROM t")
	require.NoError(t, err)
	s := findScan(p.(*Query).Root)
	require.Equal(t, []bool{false, false, false, true, false}, s.Needed) // last: the rowid
}

func TestBinder_Bind_PrunesScanColumns_KeepsReadRowid(t *testing.T) {
	p, err := bindOne(t, testCatalog(t), "SELECT rowid FROM t")
	require.NoError(t, err)
	s := findScan(p.(*Query).Root)
	require.Equal(t, []bool{false, false, false, false, true}, s.Needed)
}

func TestBinder_Bind_Errors(t *testing.T) {
	cat := testCatalog(t)
	cases := map[string]string{
		"SELECT x FROM t":                     "no such column: x",
		"SELECT * FROM nope":                  "no such table: nope",
		"SELECT count(*) FROM t WHERE sum(a)": "misuse of aggregate",
		"SELECT a FROM t ORDER BY 3":          "ORDER BY term out of range",
		"SELECT 1 UNION SELECT 1, 2":          "same number of result columns",
		"INSERT INTO t(a) VALUES (1, 2)":      "2 values for 1 columns",
		"SELECT row_number() FROM t":          "misuse of window function",
	}
	for sql, want := range cases {
		_, err := bindOne(t, cat, sql)
		require.ErrorContains(t, err, want, sql)
	}
}

func TestTableFromAST_RowidAliasAndAutoIndexes(t *testing.T) {
	cat := testCatalog(t)
	tbl := cat.Table("T")
	require.Equal(t, 0, tbl.RowidCol)
	require.Len(t, cat.TableIndexes("t"), 1)
	st, _ := grammar.Parse("CREATE TABLE k(a TEXT PRIMARY KEY, b, UNIQUE(a, b))")
	k, autos, err := TableFromAST(st[0].(*grammar.CreateTableStmt))
	require.NoError(t, err)
	require.Equal(t, -1, k.RowidCol)
	require.Len(t, autos, 2)
}

// noFolding is an Evaluator that folds nothing: the plan tests check the
// rules' rewrites of expressions as written.
type noFolding struct{}

func (noFolding) EvalConst(Expr) (types.Value, bool) { return types.Null, false }
