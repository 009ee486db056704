package funcs

import (
	"strings"
	"testing"

	"github.com/ladybugsql/ladybug/engine/types"
)

func eachRows(t *testing.T, doc string, path types.Value, recursive bool) string {
	t.Helper()
	rows, err := JSONEach(types.NewText(doc), path, recursive)
	if err != nil {
		return "ERR " + err.Error()
	}
	var out []string
	for _, r := range rows {
		out = append(out, strings.Join([]string{
			string(AppendQuote(nil, r.Key)), string(AppendQuote(nil, r.Value)), r.Type.Str(),
			string(AppendQuote(nil, r.Atom)), r.ID.Text(), string(AppendQuote(nil, r.Parent)),
			r.FullKey.Str(), r.Path.Str(),
		}, "|"))
	}
	return strings.Join(out, " ; ")
}

// TestJSONEach_Rows_MatchSQLite compares with rows SQLite returned for
// SELECT quote(key), quote(value), type, quote(atom), id, quote(parent),
// fullkey, path FROM json_each/json_tree(...).
func TestJSONEach_Rows_MatchSQLite(t *testing.T) {
	doc := `{"a":1,"b":[2,{"c":3}],"d e":"x"}`
	cases := []struct {
		doc       string
		path      types.Value
		recursive bool
		want      string
	}{
		{doc, types.Null, false, `'a'|1|integer|1|2|NULL|$.a|$ ; 'b'|'[2,{"c":3}]'|array|NULL|6|NULL|$.b|$ ; 'd e'|'x'|text|'x'|16|NULL|$."d e"|$`},
		{`{"a":1,"b":[2,{"c":3}]}`, types.NewText("$.b"), false, `0|2|integer|2|9|NULL|$.b[0]|$.b ; 1|'{"c":3}'|object|NULL|11|NULL|$.b[1]|$.b`},
		{`5`, types.Null, false, `NULL|5|integer|5|0|NULL|$|$`},
		{doc, types.Null, true, `NULL|'{"a":1,"b":[2,{"c":3}],"d e":"x"}'|object|NULL|0|NULL|$|$ ; 'a'|1|integer|1|2|0|$.a|$ ; 'b'|'[2,{"c":3}]'|array|NULL|6|0|$.b|$ ; 0|2|integer|2|9|6|$.b[0]|$.b ; 1|'{"c":3}'|object|NULL|11|6|$.b[1]|$.b ; 'c'|3|integer|3|12|11|$.b[1].c|$.b[1] ; 'd e'|'x'|text|'x'|16|0|$."d e"|$`},
		{`{"a":1,"b":[2,{"c":3}]}`, types.NewText("$.b"), true, `'b'|'[2,{"c":3}]'|array|NULL|6|NULL|$.b|$ ; 0|2|integer|2|9|6|$.b[0]|$.b ; 1|'{"c":3}'|object|NULL|11|6|$.b[1]|$.b ; 'c'|3|integer|3|12|11|$.b[1].c|$.b[1]`},
		{`[1,2]`, types.NewText("$.zz"), false, ``},
		{`[1,`, types.Null, false, `ERR ladybug: malformed JSON`},
	}
	for i, c := range cases {
		if got := eachRows(t, c.doc, c.path, c.recursive); got != c.want {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, c.want)
		}
	}
	rows, err := JSONEach(types.NewText(`{"a.b":1,"c\"d":2, "":3, "1x":4}`), types.Null, false)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, r := range rows {
		keys = append(keys, r.FullKey.Str())
	}
	if got := strings.Join(keys, " "); got != `$."a.b" $."c\"d" $."" $."1x"` {
		t.Errorf("fullkeys = %s", got)
	}
	if rows, err := JSONEach(types.Null, types.Null, false); rows != nil || err != nil {
		t.Error("NULL doc gives rows")
	}
}

// TestJSON_Subtype_EmbedsNotQuotes checks that JSON produced by a JSON
// function nests as JSON, while plain text is quoted (SQLite's subtype).
func TestJSON_Subtype_EmbedsNotQuotes(t *testing.T) {
	c := newTestContext()
	inner, err := call(c, "json", types.NewText(`[2]`))
	if err != nil || !inner.IsJSON() {
		t.Fatalf("json() = %v, %v", render(inner), err)
	}
	obj, _ := call(c, "json_object", types.NewText("a"), types.NewInt(1), types.NewText("b"), inner, types.NewText("c"), types.NewText("[3]"))
	if obj.Str() != `{"a":1,"b":[2],"c":"[3]"}` {
		t.Errorf("json_object = %s", obj.Str())
	}
	arr, _ := call(c, "json_array", inner, types.NewText("x"))
	if arr.Str() != `[[2],"x"]` {
		t.Errorf("json_array = %s", arr.Str())
	}
	f, _ := Lookup("json_group_array", 1)
	agg := f.NewAggregate()
	for _, v := range []types.Value{types.NewInt(1), types.NewText("a"), types.Null, inner} {
		if err := agg.Step([]types.Value{v}); err != nil {
			t.Fatal(err)
		}
	}
	if v, _ := agg.Final(); v.Str() != `[1,"a",null,[2]]` || !v.IsJSON() {
		t.Errorf("json_group_array = %s", v.Str())
	}
	ex, _ := call(c, "json_extract", types.NewText(`{"a":{"b":1}}`), types.NewText("$.a"))
	if !ex.IsJSON() {
		t.Error("json_extract of an object lacks the JSON subtype")
	}
	if _, err := call(c, "json_array", types.NewBlob([]byte{1})); err == nil {
		t.Error("blob in json_array accepted")
	}
}

func TestJSONGroupObject_SkipsNullNames(t *testing.T) {
	f, _ := Lookup("json_group_object", 2)
	agg := f.NewAggregate()
	agg.Step([]types.Value{types.NewText("k"), types.NewReal(1.5)})
	agg.Step([]types.Value{types.Null, types.NewInt(2)})
	agg.Step([]types.Value{types.NewText("q\""), types.Null})
	if v, _ := agg.Final(); v.Str() != `{"k":1.5,"q\"":null}` {
		t.Errorf("json_group_object = %s", v.Str())
	}
	agg.Reset()
	if v, _ := agg.Final(); v.Str() != `{}` {
		t.Errorf("empty json_group_object = %s", v.Str())
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `[1,2,]`, `{a:'x'}`, `"\ud83d\ude00"`, `0x1F`, `/*c*/1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseJSON(s, false)
		if err != nil {
			return
		}
		out := string(n.write(nil))
		again, err := parseJSON(out, true)
		if err != nil {
			t.Fatalf("canonical output %q of %q is not strict JSON: %v", out, s, err)
		}
		if string(again.write(nil)) != out {
			t.Fatalf("rewrite of %q not stable", out)
		}
	})
}

// TestJSONPath_HugeIndex_NotFound: SQLite answers NULL (not an error)
// for indexes beyond int64.
func TestJSONPath_HugeIndex_NotFound(t *testing.T) {
	c := newTestContext()
	for _, p := range []types.Value{types.NewText("$[99999999999999999999]"), types.NewText("$[#-99999999999999999999]")} {
		if v, err := call(c, "json_extract", types.NewText("[1,2]"), p); err != nil || !v.IsNull() {
			t.Errorf("json_extract(%s) = %s, %v", p.Str(), render(v), err)
		}
	}
	if v, err := call(c, "->", types.NewText("[1,2]"), types.NewInt(-9223372036854775808)); err != nil || !v.IsNull() {
		t.Errorf("-> min int64 = %s, %v", render(v), err)
	}
	if v, _ := call(c, "json_set", types.NewText("[1,2]"), types.NewText("$[99999999999999999999]"), types.NewInt(5)); v.Str() != "[1,2]" {
		t.Errorf("json_set huge index = %s", v.Str())
	}
}
