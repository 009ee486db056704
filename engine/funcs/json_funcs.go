package funcs

import (
	"github.com/ladybugsql/ladybug/engine/types"
)

var jsonFuncs = []*Func{
	scalar("json", 1, 1, fnJSON),
	scalar("json_extract", 2, -1, fnJSONExtract),
	scalar("->", 2, 2, fnArrow(false)),
	scalar("->>", 2, 2, fnArrow(true)),
	scalar("json_type", 1, 2, fnJSONType),
	scalar("json_valid", 1, 2, fnJSONValid),
	scalar("json_quote", 1, 1, fnJSONQuote),
	scalar("json_array", 0, -1, fnJSONArray),
	scalar("json_object", 0, -1, fnJSONObject),
	scalar("json_array_length", 1, 2, fnJSONArrayLength),
	scalar("json_insert", 1, -1, fnJSONEdit(editInsert)),
	scalar("json_replace", 1, -1, fnJSONEdit(editReplace)),
	scalar("json_set", 1, -1, fnJSONEdit(editSet)),
	scalar("json_remove", 1, -1, fnJSONRemove),
	scalar("json_patch", 2, 2, fnJSONPatch),
}

func fnJSON(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	n, err := jsonArg(a[0])
	if err != nil {
		return types.Null, err
	}
	return jsonResult(c, n), nil
}

func fnJSONExtract(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	root, err := jsonArg(a[0])
	if err != nil {
		return types.Null, err
	}
	if len(a) == 2 {
		if a[1].IsNull() {
			return types.Null, nil
		}
		n, err := root.lookupPath(textOf(a[1]))
		if err != nil || n == nil {
			return types.Null, err
		}
		return n.sqlValue(), nil
	}
	out := &jnode{kind: jArray}
	for _, p := range a[1:] {
		if p.IsNull() {
			return types.Null, nil
		}
		n, err := root.lookupPath(textOf(p))
		if err != nil {
			return types.Null, err
		}
		if n == nil {
			n = &jnode{kind: jNull}
		}
		out.kids = append(out.kids, n)
	}
	return jsonResult(c, out), nil
}

// fnArrow is -> (JSON text of the element) and ->> (its SQL value).
func fnArrow(sqlValue bool) ScalarFunc {
	return func(c *Context, a []types.Value) (types.Value, error) {
		if a[0].IsNull() {
			return types.Null, nil
		}
		root, err := jsonArg(a[0])
		if err != nil || a[1].IsNull() {
			return types.Null, err
		}
		n, err := root.lookupPath(arrowPath(a[1]))
		switch {
		case err != nil:
			return types.Null, errBadPath(textOf(a[1]))
		case n == nil:
			return types.Null, nil
		case sqlValue:
			return n.sqlValue(), nil
		}
		return jsonResult(c, n), nil
	}
}

// lookupArg parses a[0] and follows the optional path a[1].
func lookupArg(a []types.Value) (*jnode, error) {
	if a[0].IsNull() {
		return nil, nil
	}
	root, err := jsonArg(a[0])
	if err != nil || len(a) < 2 {
		return root, err
	}
	if a[1].IsNull() {
		return nil, nil
	}
	return root.lookupPath(textOf(a[1]))
}

func fnJSONType(_ *Context, a []types.Value) (types.Value, error) {
	n, err := lookupArg(a)
	if err != nil || n == nil {
		return types.Null, err
	}
	return types.NewText(jkindNames[n.kind]), nil
}

func fnJSONArrayLength(_ *Context, a []types.Value) (types.Value, error) {
	n, err := lookupArg(a)
	if err != nil || n == nil {
		return types.Null, err
	}
	if n.kind != jArray {
		return types.NewInt(0), nil
	}
	return types.NewInt(int64(len(n.kids))), nil
}

// fnJSONValid is json_valid(X [, FLAGS]): flags 1 (default) strict JSON,
// 2 JSON5 text; the JSONB flags 4 and 8 find no JSONB (ladybug has none).
func fnJSONValid(_ *Context, a []types.Value) (types.Value, error) {
	flags := int64(1)
	if len(a) == 2 {
		flags = a[1].AsInt()
		if flags < 1 || flags > 15 {
			return types.Null, errf("FLAGS parameter to json_valid() must be between 1 and 15")
		}
	}
	if a[0].IsNull() {
		return types.Null, nil
	}
	if flags&3 == 0 {
		return types.NewInt(0), nil
	}
	_, err := parseJSON(textOf(a[0]), flags&2 == 0)
	return types.NewBool(err == nil), nil
}

func fnJSONQuote(c *Context, a []types.Value) (types.Value, error) {
	n, err := nodeFromValue(a[0])
	if err != nil {
		return types.Null, err
	}
	return jsonResult(c, n), nil
}

func fnJSONArray(c *Context, a []types.Value) (types.Value, error) {
	out := &jnode{kind: jArray, kids: make([]*jnode, 0, len(a))}
	for _, v := range a {
		n, err := nodeFromValue(v)
		if err != nil {
			return types.Null, err
		}
		out.kids = append(out.kids, n)
	}
	return jsonResult(c, out), nil
}

func fnJSONObject(c *Context, a []types.Value) (types.Value, error) {
	if len(a)%2 != 0 {
		return types.Null, errf("json_object() requires an even number of arguments")
	}
	out := &jnode{kind: jObject, kids: make([]*jnode, 0, len(a))}
	for i := 0; i < len(a); i += 2 {
		if a[i].Kind() != types.KindText {
			return types.Null, errf("json_object() labels must be TEXT")
		}
		v, err := nodeFromValue(a[i+1])
		if err != nil {
			return types.Null, err
		}
		key := &jnode{kind: jString, text: string(appendJSONStringBody(nil, a[i].Str()))}
		out.kids = append(out.kids, key, v)
	}
	return jsonResult(c, out), nil
}

// fnJSONEdit is json_set / json_insert / json_replace(X, P1, V1, …).
func fnJSONEdit(mode editMode) ScalarFunc {
	return func(c *Context, a []types.Value) (types.Value, error) {
		if len(a)%2 == 0 {
			return types.Null, errf("%s() needs an odd number of arguments", editNames[mode])
		}
		if a[0].IsNull() {
			return types.Null, nil
		}
		root, err := jsonArg(a[0])
		if err != nil {
			return types.Null, err
		}
		for i := 1; i+1 < len(a); i += 2 {
			if a[i].IsNull() {
				continue
			}
			v, err := nodeFromValue(a[i+1])
			if err != nil {
				return types.Null, err
			}
			if root, err = edit(root, textOf(a[i]), v, mode); err != nil {
				return types.Null, err
			}
		}
		return jsonResult(c, root), nil
	}
}

var editNames = [...]string{editSet: "json_set", editInsert: "json_insert", editReplace: "json_replace"}

func fnJSONRemove(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	root, err := jsonArg(a[0])
	if err != nil {
		return types.Null, err
	}
	for _, p := range a[1:] {
		if p.IsNull() {
			return types.Null, nil
		}
		if textOf(p) == "$" {
			return types.Null, nil
		}
		if err := remove(root, textOf(p)); err != nil {
			return types.Null, err
		}
	}
	return jsonResult(c, root), nil
}

// fnJSONPatch is json_patch(T, P): RFC 7396 merge patch.
func fnJSONPatch(c *Context, a []types.Value) (types.Value, error) {
	if a[0].IsNull() {
		return types.Null, nil
	}
	t, err := jsonArg(a[0])
	if err != nil || a[1].IsNull() {
		return types.Null, err
	}
	p, err := jsonArg(a[1])
	if err != nil {
		return types.Null, err
	}
	return jsonResult(c, mergePatch(t, p)), nil
}

func mergePatch(t, p *jnode) *jnode {
	if p.kind != jObject {
		return p
	}
	if t.kind != jObject {
		t = &jnode{kind: jObject}
	}
	for i := 0; i+1 < len(p.kids); i += 2 {
		key, val := p.kids[i], p.kids[i+1]
		st := jstep{isKey: true, key: key.text}
		if d, ok := decodeJSONString(key.text); ok {
			st.key = d
		}
		slot := t.child(st)
		switch {
		case val.kind == jNull && slot != nil:
			t.removeSlot(slot)
		case val.kind == jNull:
		case slot != nil:
			*slot = mergePatch(*slot, val)
		default:
			t.kids = append(t.kids, key, mergePatch(&jnode{kind: jNull}, val))
		}
	}
	return t
}
