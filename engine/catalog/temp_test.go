package catalog

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// mainAndTemp builds a main schema and a temp one that shadows main's t.
func mainAndTemp() (main, temp *Catalog) {
	main = New()
	main.PutTable(&Table{Name: "t", RowidCol: -1, Root: 2})
	main.PutTable(&Table{Name: "m", RowidCol: -1, Root: 3})
	main.PutIndex(&Index{Name: "ti", Table: "t", Root: 4})
	main.PutTrigger(&Trigger{Name: "mtr", Table: "m"})
	temp = NewTemp()
	temp.PutTable(&Table{Name: "t", RowidCol: -1, Root: 2, Temp: true})
	temp.PutIndex(&Index{Name: "tti", Table: "t", Root: 3, Temp: true})
	temp.PutTrigger(&Trigger{Name: "onmain", Table: "m", Temp: true, OnMain: true})
	temp.PutTrigger(&Trigger{Name: "ontemp", Table: "t", Temp: true})
	return main, temp
}

func TestCatalog_WithTemp_ResolvesTempFirst(t *testing.T) {
	main, temp := mainAndTemp()
	c := main.WithTemp(temp)
	require.True(t, c.Table("T").Temp)
	require.False(t, c.Table("m").Temp)
	require.Same(t, main, c.Main())
	require.Same(t, temp, c.Temp())
	require.Same(t, main, main.WithTemp(nil), "no temp schema: main itself, so plans are shared")
	// sqlite_master lists main's objects only.
	require.Len(t, c.Entries(), len(main.Entries()))
	require.Nil(t, main.Temp())
	require.Same(t, temp, temp.Temp())
}

func TestCatalog_IndexesOf_OwnSchema(t *testing.T) {
	main, temp := mainAndTemp()
	c := main.WithTemp(temp)
	require.Equal(t, "tti", c.IndexesOf(c.Table("t"))[0].Name)
	require.Equal(t, "ti", c.IndexesOf(main.Table("t"))[0].Name, "main.t keeps main's index though temp shadows t")
	require.Equal(t, "tti", c.TableIndexes("t")[0].Name)
}

func TestCatalog_TriggersOf_TempOnMainFirst(t *testing.T) {
	main, temp := mainAndTemp()
	c := main.WithTemp(temp)
	var names []string
	for _, tr := range c.TriggersOf(c.Table("m")) {
		names = append(names, tr.Name)
	}
	require.Equal(t, []string{"onmain", "mtr"}, names)
	require.Equal(t, "ontemp", c.TriggersOf(c.Table("t"))[0].Name)
	require.Len(t, c.TriggersOf(c.Table("t")), 1)
	require.Empty(t, c.TriggersOf(main.Table("t")), "main.t has no trigger; temp's are on temp's t")
	require.Len(t, c.TableTriggers("m"), 2)
}

func TestCatalog_Clone_OfComposedIsMain(t *testing.T) {
	main, temp := mainAndTemp()
	n := main.WithTemp(temp).Clone()
	n.PutTable(&Table{Name: "x", RowidCol: -1})
	require.Nil(t, n.Temp())
	require.False(t, n.Table("t").Temp)
	require.Nil(t, main.Table("x"), "the composed catalog's clone does not write into main")
	tc := temp.Clone()
	require.True(t, tc.IsTemp())
}
