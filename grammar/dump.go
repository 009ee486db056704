package grammar

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Dump returns an indented, deterministic description of a tree: every
// node with its non-empty fields, enums by name. Positions are left out;
// so are ResultColumn.Text and statement source text when withText is
// false, which makes two dumps comparable across a print/parse round trip.
func Dump(n Node, withText bool) string {
	d := dumper{withText: withText}
	d.value(reflect.ValueOf(n), 0)
	// A list opens on the next line; drop the space left after its name.
	return strings.NewReplacer(": \n", ":\n", "- \n", "-\n").Replace(d.String())
}

type dumper struct {
	strings.Builder
	withText bool
}

var (
	positionType = reflect.TypeOf(Position{})
	stringerType = reflect.TypeOf((*fmt.Stringer)(nil)).Elem()
)

func (d *dumper) indent(depth int) { d.WriteString(strings.Repeat("  ", depth)) }

// value writes v, which starts on the current line, at depth.
func (d *dumper) value(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface:
		if v.IsNil() {
			d.WriteString("nil\n")
			return
		}
		d.value(v.Elem(), depth)
	case reflect.Struct:
		d.strct(v, depth)
	case reflect.Slice:
		d.slice(v, depth)
	case reflect.String:
		d.WriteString(strconv.Quote(v.String()) + "\n")
	case reflect.Int:
		if v.Type().Implements(stringerType) {
			name := v.Interface().(fmt.Stringer).String()
			if name == "" {
				name = "(none)"
			}
			d.WriteString(name + "\n")
			return
		}
		d.WriteString(strconv.FormatInt(v.Int(), 10) + "\n")
	default:
		fmt.Fprintf(d, "%v\n", v.Interface())
	}
}

func (d *dumper) strct(v reflect.Value, depth int) {
	d.WriteString(v.Type().Name() + "\n")
	for i := 0; i < v.NumField(); i++ {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() || f.Type == positionType || d.skip(f, fv) {
			continue
		}
		d.indent(depth + 1)
		d.WriteString(f.Name + ": ")
		d.value(fv, depth+1)
	}
	if !v.CanAddr() {
		return
	}
	if src, ok := v.Addr().Interface().(Statement); ok && d.withText && src.Text() != "" {
		d.indent(depth + 1)
		d.WriteString("Text() = " + strconv.Quote(src.Text()) + "\n")
	}
}

// skip reports fields with nothing to show: zero scalars other than
// enums, nil pointers and empty lists. An empty but non-nil list that
// carries meaning (IN (), USING ()) is kept.
func (d *dumper) skip(f reflect.StructField, v reflect.Value) bool {
	if f.Name == "Text" && !d.withText {
		return true
	}
	switch v.Kind() {
	case reflect.Ptr, reflect.Interface:
		return v.IsNil()
	case reflect.Slice:
		return v.IsNil() || v.Len() == 0 && f.Name != "List" && f.Name != "Using"
	case reflect.Int:
		if v.Int() != 0 {
			return false
		}
		// Zero enums are shown by name, unless the name is empty
		// (ConflictDefault, FKNone: "not given").
		return !v.Type().Implements(stringerType) || v.Interface().(fmt.Stringer).String() == ""
	}
	return v.IsZero()
}

func (d *dumper) slice(v reflect.Value, depth int) {
	if v.Len() == 0 {
		d.WriteString("[]\n")
		return
	}
	if v.Type().Elem().Kind() == reflect.String {
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = strconv.Quote(v.Index(i).String())
		}
		d.WriteString("[" + strings.Join(parts, ", ") + "]\n")
		return
	}
	d.WriteString("\n")
	for i := 0; i < v.Len(); i++ {
		d.indent(depth + 1)
		d.WriteString("- ")
		d.value(v.Index(i), depth+1)
	}
}
