// functions records SQLite's results for scalar function calls on bound
// parameters, for engine/funcs tests. Usage: functions GROUP > file.tsv
package main

import (
	"database/sql"
	"fmt"
	. "github.com/ladybugsql/ladybug/conformance/cmd/oraclegen/oracle"
	"math"
	"math/rand"
	"os"
	"regexp"
	"strconv"
	"strings"

	_ "modernc.org/sqlite"
)

type call struct {
	name string
	args []Operand
}

var db *sql.DB

var errRe = regexp.MustCompile(`^(SQL logic error: |string or blob too big: |)(.*?)( \(\d+\))?$`)

func ask(c call) string {
	ph := make([]string, len(c.args))
	args := make([]any, len(c.args))
	for k, a := range c.args {
		ph[k] = "?" + strconv.Itoa(k+1)
		args[k] = a.V
	}
	expr := fmt.Sprintf("%s(%s)", c.name, strings.Join(ph, ","))
	if c.name == "->" || c.name == "->>" {
		expr = "?1 " + c.name + " ?2"
	}
	q := "SELECT typeof(x)||' '||quote(x) FROM (SELECT " + expr + " AS x)"
	var s string
	if err := db.QueryRow(q, args...).Scan(&s); err != nil {
		m := errRe.FindStringSubmatch(err.Error())
		return "ERR " + m[2]
	}
	return s
}

func cross(name string, sets ...[]Operand) []call {
	out := []call{{name: name}}
	for _, set := range sets {
		var next []call
		for _, c := range out {
			for _, o := range set {
				next = append(next, call{name, append(append([]Operand{}, c.args...), o)})
			}
		}
		out = next
	}
	return out
}

func main() {
	var err error
	db, err = sql.Open("sqlite", ":memory:")
	if err != nil {
		panic(err)
	}
	db.SetMaxOpenConns(1)
	var calls []call
	for _, g := range os.Args[1:] {
		calls = append(calls, groups[g]()...)
	}
	fmt.Printf("# SQLite 3.54.1 (modernc.org/sqlite v1.62.0): name<TAB>args (Go-quoted operand codes)...<TAB>typeof(x)||' '||quote(x) or ERR message (digest <bytes> <sha256 hex> when longer than %d bytes)\n", DigestOver)
	for _, c := range calls {
		codes := make([]string, len(c.args))
		for i, a := range c.args {
			codes[i] = a.Code
		}
		fmt.Println(Row(c.name, codes, ask(c)))
	}
}

var mixed = []Operand{Null, I(0), I(1), I(-1), I(42), I(-9223372036854775808), I(9223372036854775807), R(0), R(-2.5), R(2.5), R(1e300), R(0.1), T(""), T("abc"), T("ABC"), T("  a b  "), T("-12.5"), T("12abc"), T("héllo"), T("x'y"), B(""), B("a\x00b"), B("\xff\x01")}

var jsonDocs = []Operand{Null, T(`{"a":{"b":[1,2,{"c":"\u00e9x"}]},"d":1.50,"e":null,"f":true,"g":"s\"q","h":123456789012345678901}`),
	T(`[10,20,[30,40],{"k":"v"}]`), T(`"str"`), T(`12`), T(`-0.5e3`), T(`{}`), T(`[]`), T(`[1,2,]`), T(`{a:1, 'b':'x', c:0x1F, d:.5, e:+3, f:Infinity, g:NaN, /*c*/ h:[1,]}`),
	T(`[1,2`), T(`{"a":1,"a":2}`), T(`  [ 1 , "\ud83d\ude00" ]  `), T(``), T(`nul`), T(`[01]`), T(`{"x y":{"z":[true,false]}}`), I(5), R(2.5), B("[1]")}

var jsonPaths = []Operand{Null, T("$"), T("$.a"), T("$.a.b"), T("$.a.b[2].c"), T("$.d"), T("$.e"), T("$.f"), T("$.g"), T("$.h"), T("$[1]"), T("$[2][0]"), T("$[#-1]"), T("$[#-9]"), T("$[3].k"),
	T("$.\"x y\".z[1]"), T("$.x y"), T("a"), T("$."), T("$["), T("$[x]"), T("$.a[0]"), T("$[#]"), T("$.zz")}

var timeVals = []Operand{Null, T("2024-02-29"), T("2024-02-29 13:45:30"), T("2024-02-29T13:45:30.123456"), T("2024-02-29 13:45"), T("2023-02-31"), T("2024-13-01"), T("13:45"), T("13:45:30.5"),
	T("2024-02-29 13:45:30+02:00"), T("2024-02-29 13:45:30Z"), T("2024-02-29 13:45:30 -05:30"), T("-0044-03-15"), T("9999-12-31 23:59:59.999"), T("0000-01-01"), T("bogus"), T(""), T("2451545.5"),
	I(2460000), R(2460369.0729166665), I(1709214330), I(0), I(-1), R(1e10), T("2024-2-9"), T(" 2024-02-29 "), T("2024-02-29 25:00"), T("2024-02-29 13:45:30.9999")}
var mods = []Operand{T("+1 day"), T("-1 days"), T("+3 months"), T("-13 months"), T("+1 year"), T("+1.5 days"), T("+90 minutes"), T("-30 seconds"), T("+2 hours"), T("start of month"), T("start of year"), T("start of day"),
	T("weekday 0"), T("weekday 3"), T("weekday 7"), T("unixepoch"), T("julianday"), T("auto"), T("subsec"), T("ceiling"), T("floor"), T("+01:30"), T("-00:00:30.5"), T("+0001-02-03"), T("-0000-01-00"), T("+0001-00-00 01:02"),
	T("utc"), T("localtime"), T("+1 fortnight"), T("nonsense"), T("+1"), T("5 days"), T("+1 month"), T("-1 month"), Null, T("+12:60"), T("+1 DAYS"), T("START OF MONTH")}

var groups = map[string]func() []call{
	"extra": func() []call {
		var cs []call
		cs = append(cs, cross("unistr", []Operand{T(`\0041\u00e9\+01F600\U0001F600\\x`), T(`\u00`), T(`abc\`), T(`\q`), T("plain"), Null, I(5), T(`\D800`)})...)
		cs = append(cs, cross("soundex", []Operand{T("Tymczak"), T(""), Null, T("Pfister"), T("123"), T("Ashcraft"), T("robert"), T("Lloyd"), T("  ébc"), I(42), T("Honeyman")})...)
		docs := []Operand{T("[]"), T("{}"), T(`[1,{"a":[],"b":{}},"x"]`), T(`{"a":1}`), T("5"), T(`{a:1,}`), Null, T("[1,")}
		cs = append(cs, cross("json_pretty", docs)...)
		cs = append(cs, cross("json_pretty", docs, []Operand{T("  "), Null, T(""), T("\t")})...)
		cs = append(cs, cross("json_error_position", []Operand{T(`{"a":1}`), T("[1,]"), T(`{"a" 1}`), T("  x"), T(`"abc`), T("[1,2"), T("ééé["), Null, T(""), T(`{"a":tru}`), T(`[1 2]`), T(`{"a":1}x`), T(`"\q"`), T(`[01]`), T(`{"a":"é`), T(`/* x`)})...)
		return cs
	},
	"date": func() []call {
		var cs []call
		for _, f := range []string{"date", "time", "datetime", "julianday", "unixepoch"} {
			cs = append(cs, cross(f, timeVals)...)
			cs = append(cs, cross(f, []Operand{T("2024-01-31 10:20:30"), I(1709214330), T("2024-03-31"), R(2460369.5)}, mods)...)
		}
		cs = append(cs, cross("datetime", []Operand{T("2024-01-31 10:20:30"), I(1709214330)}, []Operand{T("+1 month"), T("unixepoch"), T("start of month")}, []Operand{T("floor"), T("ceiling"), T("subsec"), T("unixepoch"), T("+1 day")})...)
		cs = append(cs, cross("datetime", []Operand{T("2024-01-31")}, []Operand{T("+1 month")}, []Operand{T("floor")})...)
		fmts := []string{"%d|%e|%f|%F|%G|%g|%H|%I|%j|%J|%k|%l|%m|%M|%p|%P|%R|%s|%S|%T|%u|%U|%V|%w|%W|%Y|%%", "%Q", "%", "plain", "%Y-%m-%d %H:%M:%f"}
		days := []Operand{T("2024-01-01 00:00:00"), T("2024-12-31 23:59:59.999"), T("2021-01-03 12:00"), T("2020-12-28 01:02:03"), T("2027-01-01"), T("1999-07-04 15:30:00"), T("2024-02-29 13:45:30.250"), T("-0001-06-15"), I(1709214330), Null}
		for _, f := range fmts {
			cs = append(cs, cross("strftime", []Operand{T(f)}, days)...)
		}
		cs = append(cs, cross("strftime", []Operand{T("%s"), T("%J")}, []Operand{T("2024-02-29 13:45:30.250")}, []Operand{T("subsec"), T("+1 day")})...)
		cs = append(cs, call{"strftime", []Operand{Null, T("2024-01-01")}})
		tv := []Operand{T("2024-03-31 10:00:00"), T("2024-02-29 13:45:30.5"), T("2023-01-01"), T("2024-03-01"), T("2000-01-01 00:00:00"), Null, T("bogus")}
		cs = append(cs, cross("timediff", tv, tv)...)
		return cs
	},
	"match": func() []call {
		var cs []call
		subj := []Operand{Null, T(""), T("abc"), T("ABC"), T("a_c"), T("a%c"), T("aXbXc"), T("héllo"), T("HÉLLO"), T("x]y"), T("a-b"), T("abcabc"), I(123), R(1.5), T("a\nb"), T("[x]")}
		likes := []Operand{Null, T(""), T("%"), T("_"), T("a%"), T("%c"), T("A_C"), T("%b%"), T("a\\_c"), T("a\\%c"), T("%%%"), T("_%_"), T("h_llo"), T("h%"), T("%É%"), T("1%"), T("%.5"), T("a%b%c"), T("%bc%bc"), T("x_x"), T("[x]"), T("a!%c")}
		cs = append(cs, cross("like", likes, subj)...)
		cs = append(cs, cross("like", likes, subj, []Operand{T("\\"), T("!"), T(""), T("ab"), Null})...)
		globs := []Operand{Null, T("*"), T("?"), T("a*"), T("*C"), T("[a-c]*"), T("[^a]*"), T("*[]]*"), T("[]x]*"), T("a?c"), T("*b*"), T("h?llo"), T("[x-]*"), T("[a-]*"), T("1*"), T("[ab"), T("*[bc]"), T("*[[]*"), T("a-b"), T("*?*")}
		cs = append(cs, cross("glob", globs, subj)...)
		return cs
	},
	"json": func() []call {
		var cs []call
		for _, f := range []string{"json", "json_type", "json_valid", "json_array_length", "json_quote"} {
			cs = append(cs, cross(f, jsonDocs)...)
		}
		for _, f := range []string{"json_extract", "json_type", "json_array_length", "->", "->>", "json_remove"} {
			cs = append(cs, cross(f, jsonDocs, jsonPaths)...)
		}
		cs = append(cs, cross("->", jsonDocs, []Operand{T("a"), T("d"), I(1), I(-1), I(0), T("[1]"), T("x y")})...)
		cs = append(cs, cross("->>", jsonDocs, []Operand{T("a"), T("d"), I(1), I(-1), I(0), T("[1]"), R(1.5)})...)
		cs = append(cs, cross("json_valid", jsonDocs, []Operand{I(1), I(2), I(3), I(4), I(0), I(16)})...)
		vals := []Operand{Null, I(7), R(0.1), R(1e300), R(math.Inf(1)), T("x\"y\n"), T("[1]"), B("z")}
		cs = append(cs, cross("json_array", vals)...)
		cs = append(cs, cross("json_array", vals, vals)...)
		cs = append(cs, cross("json_quote", vals)...)
		cs = append(cs, cross("json_object", []Operand{T("k"), I(1), Null, T("")}, vals)...)
		cs = append(cs, cross("->", []Operand{T(`{"a":1,"a.b":2,"a b":3,"":4,"$x":5,"1.5":6,"#":7}`), T(`[5,6]`), I(100)}, []Operand{T("\\"), T(""), T("a.b"), T("a b"), T("[0]"), T("a["), T("$x"), B("$a"), R(1.0), R(1.5), T(`"a"`), T("#"), I(-1), T("[#-1]")})...)
		cs = append(cs, call{"json_object", []Operand{T("a")}}, call{"json_object", nil}, call{"json_array", nil}, call{"json_extract", []Operand{T("[1,2]"), T("$[0]"), T("$[5]")}})
		edits := []Operand{T(`{"a":1,"b":[1,2]}`), T(`[1,2]`), Null, T(`"x"`), T(`{bad`)}
		ep := []Operand{T("$.a"), T("$.c"), T("$.c.d"), T("$.b[0]"), T("$.b[#]"), T("$.b[5]"), T("$[0]"), T("$[#]"), T("$[2]"), T("$"), Null, T("bad")}
		for _, f := range []string{"json_set", "json_insert", "json_replace"} {
			cs = append(cs, cross(f, edits, ep, []Operand{I(9), T("v"), Null})...)
			cs = append(cs, call{f, []Operand{T(`{}`), T("$.a")}}, call{f, []Operand{T(`{"a":1}`)}})
		}
		cs = append(cs, cross("json_remove", edits, ep, ep)...)
		pt := []Operand{T(`{"a":1,"b":{"c":2}}`), T(`[1]`), T(`{"a":[1]}`), Null}
		pp := []Operand{T(`{"b":{"c":null,"d":3},"e":4}`), T(`{"a":null}`), T(`[2]`), T(`{"a":{"x":1}}`), T(`"s"`), Null, T(`{"z":{"y":null}}`)}
		cs = append(cs, cross("json_patch", pt, pp)...)
		return cs
	},
	"core": func() []call {
		var cs []call
		for _, f := range []string{"abs", "typeof", "sign", "length", "octet_length", "lower", "upper", "trim", "ltrim", "rtrim", "hex", "quote", "unicode", "char", "unhex", "likely", "unlikely", "zeroblob", "concat"} {
			cs = append(cs, cross(f, mixed)...)
		}
		two := []Operand{Null, I(0), I(2), I(-2), R(1.5), T(""), T("a"), T("ab"), T("b"), T(" "), T("é"), B("a")}
		for _, f := range []string{"coalesce", "ifnull", "nullif", "instr", "trim", "ltrim", "rtrim", "max", "min", "concat", "concat_ws", "unhex", "iif"} {
			cs = append(cs, cross(f, []Operand{Null, I(1), I(0), R(2.5), T("a"), T("abab"), T("héllo"), T("12"), T("  xa  "), B("ab"), T("ABab"), T("4142"), T("41-42")}, two)...)
		}
		subj := []Operand{T("héllo wörld"), B("abcdef"), I(123456), Null, T("")}
		pos := []Operand{Null, I(0), I(1), I(2), I(-1), I(-3), I(-20), I(20), R(2.7), T("2")}
		ln := []Operand{Null, I(0), I(1), I(3), I(-1), I(-2), I(-20), I(100)}
		cs = append(cs, cross("substr", subj, pos)...)
		cs = append(cs, cross("substr", subj, pos, ln)...)
		cs = append(cs, cross("substring", []Operand{T("abc")}, []Operand{I(2)}, []Operand{I(1)})...)
		rep := []Operand{Null, T(""), T("a"), T("ab"), T("xyz"), I(1), B("b")}
		cs = append(cs, cross("replace", []Operand{Null, T("abcabc"), T(""), I(1212), T("aaaa")}, rep, rep)...)
		cs = append(cs, cross("char", []Operand{I(72), I(233), I(0x1F600), I(-1), I(0x110000), Null, T("65")}, []Operand{I(105), R(66.9)})...)
		cs = append(cs, cross("iif", []Operand{I(0), I(1), Null}, []Operand{T("y")}, []Operand{T("n")}, []Operand{I(1)}, []Operand{T("m")})...)
		cs = append(cs, cross("iif", []Operand{I(0), I(1)}, []Operand{T("y")}, []Operand{T("n")})...)
		cs = append(cs, cross("coalesce", []Operand{Null}, []Operand{Null}, []Operand{Null, I(3)})...)
		cs = append(cs, cross("max", []Operand{I(1), T("a")}, []Operand{R(2.5)}, []Operand{B("z"), Null})...)
		cs = append(cs, cross("concat_ws", []Operand{T(","), Null}, []Operand{I(1), Null}, []Operand{T("b")}, []Operand{R(2.5), Null})...)
		// edges found by random differential runs
		cs = append(cs, cross("substr", []Operand{T("$.a"), B(""), B("\x00\xff"), T("\xc3\xa9\x80x"), T("a\x00b")}, []Operand{I(-9223372036854775808), I(9223372036854775807), I(-1), I(2)})...)
		cs = append(cs, cross("substr", []Operand{T("abcdef")}, []Operand{I(3), I(-3), I(0)}, []Operand{I(-9223372036854775808), I(9223372036854775807), I(-2)})...)
		cs = append(cs, cross("min", []Operand{I(0), R(0)}, []Operand{R(0), I(0)})...)
		cs = append(cs, cross("max", []Operand{I(0), R(0)}, []Operand{R(0), I(0)})...)
		cs = append(cs, cross("unicode", []Operand{B("\x00\xff"), T("\x00a")})...)
		cs = append(cs, cross("unhex", []Operand{B("\x00\xff"), T("41\x0042")})...)
		cs = append(cs, cross("replace", []Operand{T("abc"), B("\x00\xff")}, []Operand{B("\x00\xff"), T("b")}, []Operand{T("Z"), Null})...)
		cs = append(cs, cross("ceil", []Operand{T("1e3"), T("12"), T("-2.5")})...)
		cs = append(cs, cross("floor", []Operand{T("1e3"), T("12"), T("-2.5")})...)
		cs = append(cs, call{"zeroblob", []Operand{I(2000000000)}}, call{"abs", []Operand{}}, call{"substr", []Operand{T("x")}}, call{"nosuch", []Operand{I(1)}}, call{"sqlite_version", nil}, call{"concat", nil}, call{"coalesce", []Operand{I(1)}})
		return cs
	},
	"math": func() []call {
		var cs []call
		vals := []Operand{Null, I(0), I(1), I(-1), I(4), I(-9223372036854775808), R(0.5), R(-0.5), R(2.5), R(-2.5), R(1.4999999999999999), R(1e300), R(-1e-300), R(math.Inf(1)), T("2"), T("2.5x"), T("abc"), T(" 9 "), B("3")}
		for _, f := range []string{"ceil", "ceiling", "floor", "trunc", "sqrt", "exp", "ln", "log", "log10", "log2", "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "round"} {
			cs = append(cs, cross(f, vals)...)
		}
		two := []Operand{Null, I(0), I(2), I(-1), R(0.5), R(-2), T("3"), I(10)}
		for _, f := range []string{"pow", "power", "mod", "atan2", "log"} {
			cs = append(cs, cross(f, vals, two)...)
		}
		rv := []Operand{R(2.5), R(-2.5), R(0.125), R(1.005), R(2.675), R(123.456789), R(-0.0049), R(1e15 + 0.5), R(9.995), R(0.285), I(17), T("1.25"), Null}
		cs = append(cs, cross("round", rv, []Operand{I(0), I(1), I(2), I(3), I(-1), I(40), Null, R(1.9)})...)
		cs = append(cs, call{"pi", nil})
		return cs
	},
	"printf": func() []call {
		var cs []call
		fmts := []string{"%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%,d", "%.3d", "%x", "%X", "%#x", "%#X", "%o", "%#o", "%u", "%i", "%c", "%5c|", "%.3c", "%s", "%.2s", "%10s|", "%-10s|", "%!.2s", "%!5s|", "%q", "%Q", "%w", "%f", "%.2f", "%10.3f|", "%-10.1f|", "%010.2f", "%+.1f", "%#.0f", "%!.3f", "%e", "%.3e", "%E", "%g", "%.3g", "%#g", "%G", "%!g", "%.20f", "%.0f", "%,.2f", "%%", "%z", "%r", "%p", "%n", "%y", "%lld", "%ld", "%j", "%J", "%!.5g", "%.15g", "%.17g", "%!.17g", "%*d|", "%-*d|", "%.*f", "% .2e", "%#.3e", "%08.3e", "%+08d"}
		args := []Operand{Null, I(0), I(42), I(-42), I(255), I(1234567), I(-9223372036854775808), R(3.14159), R(-0.0001), R(1e21), R(2.5), R(0.5), R(1e-10), R(math.Inf(1)), R(math.Inf(-1)), R(123456.789), T("hello"), T("it's"), T("héllo"), T("ab\"c"), T("7"), B("xy")}
		for _, f := range fmts {
			for _, a := range args {
				cs = append(cs, call{"printf", []Operand{T(f), a}})
			}
		}
		rr := rand.New(rand.NewSource(5))
		flags := []string{"", "-", "+", " ", "#", "!", "0", ",", "-0", "+#", "!#", "0,", "#0"}
		widths := []string{"", "1", "5", "12", "30"}
		precs := []string{"", ".", ".0", ".1", ".3", ".10", ".17", ".20", ".40"}
		verbs := "dixXoucsqQwfeEgGr%j"
		pargs := []Operand{Null, I(0), I(7), I(-7), I(123456789), I(-9223372036854775808), R(0), R(1), R(0.5), R(1.5), R(2.5), R(-2.5), R(3.14159265358979), R(1e-5), R(1e-4), R(123456.789), R(1e15), R(1e16), R(1e17), R(9.999999), R(0.000123456), R(1e300), R(math.MaxFloat64), R(5e-324), R(99.995), R(0.125), T("abc"), T("héllo wörld"), T("x'y"), T(""), T("12.5")}
		for k := 0; k < 2500; k++ {
			f := "%" + flags[rr.Intn(len(flags))] + widths[rr.Intn(len(widths))] + precs[rr.Intn(len(precs))] + string(verbs[rr.Intn(len(verbs))])
			cs = append(cs, call{"printf", []Operand{T(f), pargs[rr.Intn(len(pargs))], pargs[rr.Intn(len(pargs))]}})
		}
		cs = append(cs, call{"printf", []Operand{T("%*d|"), I(6), I(42)}}, call{"printf", []Operand{T("%.*f"), I(2), R(3.14159)}},
			call{"printf", []Operand{T("%-*d|"), I(-6), I(42)}}, call{"printf", []Operand{T("%s and %s")}}, call{"printf", []Operand{T("%d %s %f"), I(1), T("two"), R(3)}},
			call{"printf", []Operand{Null, I(1)}}, call{"printf", []Operand{I(12)}}, call{"format", []Operand{T("%5.1f"), R(2.25)}},
			call{"printf", []Operand{T("abc%")}}, call{"printf", []Operand{T("%d%%"), I(5)}}, call{"printf", []Operand{T("%.3q"), T("a'b'c")}}, call{"printf", []Operand{T("%T|after"), I(5)}},
			call{"printf", []Operand{T("%1000000001d"), I(5)}}, call{"printf", []Operand{T("%!10.3s|"), T("héllo")}})
		return cs
	},
}
