package plan

import (
	"strings"

	"github.com/ladybugsql/ladybug/engine/catalog"
	"github.com/ladybugsql/ladybug/engine/types"
)

// MasterTable is the catalog-provided sqlite_master / sqlite_schema table.
var MasterTable = &catalog.Table{
	Name: "sqlite_master", RowidCol: -1, Virtual: true,
	Columns: []catalog.Column{
		{Name: "type", DeclType: "TEXT", Affinity: types.AffinityText},
		{Name: "name", DeclType: "TEXT", Affinity: types.AffinityText},
		{Name: "tbl_name", DeclType: "TEXT", Affinity: types.AffinityText},
		{Name: "rootpage", DeclType: "INT", Affinity: types.AffinityInteger},
		{Name: "sql", DeclType: "TEXT", Affinity: types.AffinityText},
	},
}

// VirtualTable returns the catalog-provided table named name, or nil.
func VirtualTable(name string) *catalog.Table {
	switch strings.ToLower(name) {
	case "sqlite_master", "sqlite_schema":
		return MasterTable
	case "sqlite_temp_master", "sqlite_temp_schema":
		return TempMasterTable
	}
	return nil
}

// TableFuncColumns lists the columns of each table-valued function.
var TableFuncColumns = map[string][]string{
	"pragma_table_info":         {"cid", "name", "type", "notnull", "dflt_value", "pk"},
	"pragma_table_xinfo":        {"cid", "name", "type", "notnull", "dflt_value", "pk", "hidden"},
	"pragma_index_list":         {"seq", "name", "unique", "origin", "partial"},
	"pragma_index_info":         {"seqno", "cid", "name"},
	"pragma_index_xinfo":        {"seqno", "cid", "name", "desc", "coll", "key"},
	"pragma_foreign_key_list":   {"id", "seq", "table", "from", "to", "on_update", "on_delete", "match"},
	"pragma_database_list":      {"seq", "name", "file"},
	"pragma_foreign_key_check":  {"table", "rowid", "parent", "fkid"},
	"generate_series":           {"value"},
	"pragma_page_size":          {"page_size"},
	"pragma_page_count":         {"page_count"},
	"pragma_freelist_count":     {"freelist_count"},
	"pragma_user_version":       {"user_version"},
	"pragma_application_id":     {"application_id"},
	"pragma_foreign_keys":       {"foreign_keys"},
	"pragma_schema_version":     {"schema_version"},
	"pragma_analysis_limit":     {"analysis_limit"},
	"json_each":                 {"key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"},
	"json_tree":                 {"key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"},
	"information_schema.tables": {"table_catalog", "table_schema", "table_name", "table_type"},
	"information_schema.columns": {"table_catalog", "table_schema", "table_name", "column_name",
		"ordinal_position", "column_default", "is_nullable", "data_type"},
}

func tableFuncColumns(name string) ([]string, bool) {
	c, ok := TableFuncColumns[name]
	return c, ok
}

// IsSystemName reports whether name is reserved for ladybug's own objects.
func IsSystemName(name string) bool {
	return strings.HasPrefix(strings.ToLower(name), "sqlite_")
}
