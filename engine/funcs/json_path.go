package funcs

import (
	"math"
	"strconv"
	"strings"

	"github.com/ladybugsql/ladybug/engine/types"
)

// jstep is one step of a JSON path: an object label, an array index
// (fromEnd counts back from the end, "#-N"), or the append position "#".
type jstep struct {
	key     string // decoded label, when isKey
	isKey   bool
	index   int64
	fromEnd bool
	append  bool
}

func errBadPath(p string) error { return errf("bad JSON path: '%s'", p) }

// parsePath parses "$", "$.a.b", "$.\"x y\"", "$[2]", "$[#-1]", "$[#]".
func parsePath(p string) ([]jstep, error) {
	if !strings.HasPrefix(p, "$") {
		return nil, errBadPath(p)
	}
	var steps []jstep
	for i := 1; i < len(p); {
		var st jstep
		var err error
		switch p[i] {
		case '.':
			st, i, err = parseLabel(p, i+1)
		case '[':
			st, i, err = parseIndex(p, i+1)
		default:
			err = errBadPath(p)
		}
		if err != nil {
			return nil, err
		}
		steps = append(steps, st)
	}
	return steps, nil
}

func parseLabel(p string, i int) (jstep, int, error) {
	if i < len(p) && p[i] == '"' {
		for j := i + 1; j < len(p); j++ {
			switch p[j] {
			case '\\':
				j++
			case '"':
				key := p[i+1 : j]
				if d, ok := decodeJSONString(key); ok {
					key = d
				}
				return jstep{isKey: true, key: key}, j + 1, nil
			}
		}
		return jstep{}, 0, errBadPath(p)
	}
	j := i
	for j < len(p) && p[j] != '.' && p[j] != '[' {
		j++
	}
	if j == i {
		return jstep{}, 0, errBadPath(p)
	}
	return jstep{isKey: true, key: p[i:j]}, j, nil
}

func parseIndex(p string, i int) (jstep, int, error) {
	end := strings.IndexByte(p[i:], ']')
	if end < 0 {
		return jstep{}, 0, errBadPath(p)
	}
	inner := p[i : i+end]
	next := i + end + 1
	var st jstep
	switch {
	case inner == "#":
		st.append = true
	case strings.HasPrefix(inner, "#-"):
		if !allDigits(inner[2:]) {
			return jstep{}, 0, errBadPath(p)
		}
		st.index, st.fromEnd = parseIndexDigits(inner[2:]), true
	default:
		if !allDigits(inner) {
			return jstep{}, 0, errBadPath(p)
		}
		st.index = parseIndexDigits(inner)
	}
	return st, next, nil
}

// parseIndexDigits reads an array index; one too large for int64 names
// no element (SQLite answers "not found", not an error).
func parseIndexDigits(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return math.MaxInt64
	}
	return n
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// arrowPath turns the right side of -> / ->> into a path as SQLite does:
// text starting with '$' is a path; an INTEGER is an array index
// (negative counts from the end); an alphanumeric text a label; "[…]" an
// index step; any other text one quoted label.
func arrowPath(v types.Value) string {
	if v.Kind() == types.KindInt {
		if i := v.Int(); i < 0 {
			return "$[#" + strconv.FormatInt(i, 10) + "]"
		}
		return "$[" + v.Text() + "]"
	}
	s := cStringPath(textOf(v))
	switch {
	case strings.HasPrefix(s, "$"):
		return s
	case allAlnum(s):
		return "$." + s
	case len(s) >= 3 && s[0] == '[' && s[len(s)-1] == ']':
		return "$" + s
	}
	return `$."` + s + `"`
}

func cStringPath(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

func allAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// child returns the slot of step st in n (a pointer into n.kids), or nil.
func (n *jnode) child(st jstep) **jnode {
	switch {
	case st.isKey && n.kind == jObject:
		for i := 0; i+1 < len(n.kids); i += 2 {
			if k := n.kids[i]; k.text == st.key || decodedEquals(k.text, st.key) {
				return &n.kids[i+1]
			}
		}
	case !st.isKey && !st.append && n.kind == jArray:
		idx := st.index
		if st.fromEnd {
			idx = int64(len(n.kids)) - st.index
		}
		if idx >= 0 && idx < int64(len(n.kids)) {
			return &n.kids[idx]
		}
	}
	return nil
}

func decodedEquals(body, key string) bool {
	if strings.IndexByte(body, '\\') < 0 {
		return false
	}
	d, ok := decodeJSONString(body)
	return ok && d == key
}

// lookupPath follows path p from n the way SQLite does: step by step, so
// a malformed tail after a missing step is not an error (the result is
// simply not found) — only a malformed step that is reached is. SQLite
// validates a label before checking the node is an object, but checks for
// an array before parsing an index.
func (n *jnode) lookupPath(p string) (*jnode, error) {
	if !strings.HasPrefix(p, "$") {
		return nil, errBadPath(p)
	}
	for i := 1; i < len(p); {
		st, next, err := nextStep(p, i, n)
		if err != nil || st == nil {
			return nil, err
		}
		slot := n.child(*st)
		if slot == nil {
			return nil, nil
		}
		n, i = *slot, next
	}
	return n, nil
}

// editMode is how json_set/insert/replace treat existing and missing paths.
type editMode uint8

const (
	editSet     editMode = iota // create or overwrite
	editInsert                  // create only
	editReplace                 // overwrite only
)

// nextStep parses the step of p at i, SQLite-style (see lookupPath);
// st is nil when the step cannot apply to n, so the path is not found.
func nextStep(p string, i int, n *jnode) (*jstep, int, error) {
	var st jstep
	var err error
	switch {
	case p[i] == '.':
		st, i, err = parseLabel(p, i+1)
		if err == nil && n.kind != jObject {
			return nil, i, nil
		}
	case p[i] == '[' && n.kind != jArray:
		return nil, i, nil
	case p[i] == '[':
		st, i, err = parseIndex(p, i+1)
	default:
		err = errBadPath(p)
	}
	if err != nil {
		return nil, i, err
	}
	return &st, i, nil
}

// edit applies path = v to root and returns the new root.
func edit(root *jnode, p string, v *jnode, mode editMode) (*jnode, error) {
	if !strings.HasPrefix(p, "$") {
		return nil, errBadPath(p)
	}
	if p == "$" {
		if mode == editInsert {
			return root, nil
		}
		return v, nil
	}
	n := root
	for i := 1; i < len(p); {
		st, next, err := nextStep(p, i, n)
		if err != nil || st == nil {
			return root, err
		}
		slot := n.child(*st)
		if slot == nil {
			if mode == editReplace {
				return root, nil
			}
			rest, err := parsePath("$" + p[next:])
			if err != nil {
				return nil, err
			}
			create(n, *st, rest, v)
			return root, nil
		}
		if next == len(p) {
			if mode != editInsert {
				*slot = v
			}
			return root, nil
		}
		n, i = *slot, next
	}
	return root, nil
}

// create adds the missing step st under n, building the containers the
// remaining steps name: a label makes an object, an index that is the end
// of the new array ("#", "#-0" or 0) makes an array. An array grows only
// at its end; other missing shapes are left alone, as in SQLite.
func create(n *jnode, st jstep, rest []jstep, v *jnode) {
	for j := len(rest) - 1; j >= 0; j-- {
		switch r := rest[j]; {
		case r.isKey:
			v = &jnode{kind: jObject, kids: []*jnode{{kind: jString, text: string(appendJSONStringBody(nil, r.key))}, v}}
		case r.append || r.index == 0:
			v = &jnode{kind: jArray, kids: []*jnode{v}}
		default:
			return
		}
	}
	switch {
	case st.isKey && n.kind == jObject:
		n.kids = append(n.kids, &jnode{kind: jString, text: string(appendJSONStringBody(nil, st.key))}, v)
	case n.kind == jArray && appendsTo(st, len(n.kids)):
		n.kids = append(n.kids, v)
	}
}

// appendsTo reports whether index step st names the end of an array of n.
func appendsTo(st jstep, n int) bool {
	return st.append || (st.fromEnd && st.index == 0) || (!st.fromEnd && st.index == int64(n))
}

// remove deletes the value at path p; the root cannot be removed.
func remove(root *jnode, p string) error {
	if !strings.HasPrefix(p, "$") {
		return errBadPath(p)
	}
	n := root
	for i := 1; i < len(p); {
		st, next, err := nextStep(p, i, n)
		if err != nil || st == nil {
			return err
		}
		slot := n.child(*st)
		if slot == nil {
			return nil
		}
		if next == len(p) {
			n.removeSlot(slot)
			return nil
		}
		n, i = *slot, next
	}
	return nil
}

// removeSlot drops the element (or key and value) at slot.
func (n *jnode) removeSlot(slot **jnode) {
	for i := range n.kids {
		if &n.kids[i] != slot {
			continue
		}
		if n.kind == jObject {
			n.kids = append(n.kids[:i-1], n.kids[i+1:]...)
		} else {
			n.kids = append(n.kids[:i], n.kids[i+1:]...)
		}
		return
	}
}
