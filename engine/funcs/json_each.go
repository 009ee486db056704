package funcs

import (
	"strconv"

	"github.com/ladybugsql/ladybug/engine/types"
)

// JSONEachColumns are the columns of the json_each and json_tree
// table-valued functions, in order; the last two are hidden (they hold
// the arguments, as in SQLite).
var JSONEachColumns = []string{"key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"}

// JSONEachHidden is the number of trailing hidden columns of JSONEachColumns.
const JSONEachHidden = 2

// JSONRow is one row of json_each / json_tree (the visible columns).
type JSONRow struct {
	Key, Value, Type, Atom, ID, Parent, FullKey, Path types.Value
}

// JSONEach produces the rows of json_each(doc [, path]) or, when
// recursive, json_tree(doc [, path]). A NULL doc or a path that finds
// nothing gives no rows; malformed JSON or a bad path is an error.
//
// id and parent are the element's byte offset in SQLite's JSONB encoding
// of the document, computed the same way, so they match SQLite's for
// documents in strict JSON (JSON5 input canonicalised here may shift them).
func JSONEach(doc, path types.Value, recursive bool) ([]JSONRow, error) {
	if doc.IsNull() {
		return nil, nil
	}
	root, err := jsonArg(doc)
	if err != nil {
		return nil, err
	}
	p := "$"
	if !path.IsNull() {
		p = textOf(path)
	}
	w := &eachWalker{recursive: recursive}
	target, err := w.find(root, p)
	if err != nil || target == nil {
		return nil, err
	}
	if recursive || (target.node.kind != jArray && target.node.kind != jObject) {
		w.emit(*target, types.Null)
		if recursive {
			w.children(*target)
		}
		return w.rows, nil
	}
	w.children(*target)
	return w.rows, nil
}

// eachItem is an element with its position: key (NULL, index or label),
// JSONB offset, full path and the path of its container.
type eachItem struct {
	node     *jnode
	key      types.Value
	id       int64 // offset of the element, or of its label in an object
	valueOff int64 // offset of the value itself
	fullKey  string
	path     string
}

type eachWalker struct {
	recursive bool
	rows      []JSONRow
}

// find walks path p from the root, tracking offsets and keys.
func (w *eachWalker) find(root *jnode, p string) (*eachItem, error) {
	if len(p) == 0 || p[0] != '$' {
		return nil, errBadPath(p)
	}
	it := eachItem{node: root, key: types.Null, fullKey: "$", path: "$"}
	for i := 1; i < len(p); {
		st, next, err := nextStep(p, i, it.node)
		if err != nil || st == nil {
			return nil, err
		}
		child, ok := it.child(*st)
		if !ok {
			return nil, nil
		}
		it, i = child, next
	}
	return &it, nil
}

// child finds step st among it's children.
func (it eachItem) child(st jstep) (eachItem, bool) {
	found := false
	var out eachItem
	it.eachChild(func(c eachItem, label string) bool {
		if st.isKey && (label == st.key) {
			out, found = c, true
		} else if !st.isKey && c.key.Kind() == types.KindInt {
			idx := st.index
			if st.fromEnd {
				idx = int64(len(it.node.kids)) - st.index
			}
			if !st.append && c.key.Int() == idx {
				out, found = c, true
			}
		}
		return !found
	})
	return out, found
}

// eachChild calls fn for every child of it with its decoded label
// ("" for array elements) until fn returns false.
func (it eachItem) eachChild(fn func(c eachItem, label string) bool) {
	n := it.node
	off := it.valueOff + jsonbHeader(n)
	switch n.kind {
	case jArray:
		for i, k := range n.kids {
			c := eachItem{node: k, key: types.NewInt(int64(i)), id: off, valueOff: off,
				fullKey: it.fullKey + "[" + strconv.Itoa(i) + "]", path: it.fullKey}
			if !fn(c, "") {
				return
			}
			off += jsonbSize(k)
		}
	case jObject:
		for i := 0; i+1 < len(n.kids); i += 2 {
			label, _ := decodeJSONString(n.kids[i].text)
			voff := off + jsonbSize(n.kids[i])
			c := eachItem{node: n.kids[i+1], key: types.NewText(label), id: off, valueOff: voff,
				fullKey: it.fullKey + pathLabel(n.kids[i].text), path: it.fullKey}
			if !fn(c, label) {
				return
			}
			off = voff + jsonbSize(n.kids[i+1])
		}
	}
}

// pathLabel is ".label", quoted unless it is alphanumeric from a letter.
func pathLabel(raw string) string {
	quote := raw == "" || !isAlpha(raw[0])
	for i := 0; i < len(raw) && !quote; i++ {
		quote = !isAlpha(raw[i]) && !isDigit(raw[i])
	}
	if quote {
		return `."` + raw + `"`
	}
	return "." + raw
}

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

func (w *eachWalker) emit(it eachItem, parent types.Value) {
	n := it.node
	r := JSONRow{
		Key: it.key, Type: types.NewText(jkindNames[n.kind]), ID: types.NewInt(it.id),
		Parent: parent, FullKey: types.NewText(it.fullKey), Path: types.NewText(it.path),
	}
	r.Value = n.sqlValue()
	if n.kind != jArray && n.kind != jObject {
		r.Atom = r.Value
	}
	w.rows = append(w.rows, r)
}

// children emits it's children (and, recursively, theirs for json_tree).
func (w *eachWalker) children(it eachItem) {
	parent := types.Null
	if w.recursive {
		parent = types.NewInt(it.id)
	}
	it.eachChild(func(c eachItem, _ string) bool {
		w.emit(c, parent)
		if w.recursive {
			w.children(c)
		}
		return true
	})
}

// jsonbPayload is the size of n's payload in SQLite's JSONB encoding.
func jsonbPayload(n *jnode) int64 {
	switch n.kind {
	case jNull, jTrue, jFalse:
		return 0
	case jArray, jObject:
		var s int64
		for _, k := range n.kids {
			s += jsonbSize(k)
		}
		return s
	}
	return int64(len(n.text))
}

// jsonbHeader is the size of n's JSONB header.
func jsonbHeader(n *jnode) int64 {
	switch p := jsonbPayload(n); {
	case p <= 11:
		return 1
	case p <= 0xff:
		return 2
	case p <= 0xffff:
		return 3
	case p <= 0xffffffff:
		return 5
	}
	return 9
}

func jsonbSize(n *jnode) int64 { return jsonbHeader(n) + jsonbPayload(n) }
