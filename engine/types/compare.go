package types

import "strings"

// classRank orders the storage classes across kinds: NULL < numbers <
// TEXT < BLOB.
func classRank(k Kind) int {
	switch k {
	case KindNull:
		return 0
	case KindInt, KindReal:
		return 1
	case KindText:
		return 2
	}
	return 3
}

// Compare orders a and b as SQLite sorts them: NULL first, then numbers
// (INTEGER against REAL exactly, never through a lossy conversion), then
// text under coll, then blobs by bytes. NULLs compare equal to each other,
// which is the ORDER BY / DISTINCT / IS view; for the SQL comparison
// operators, where NULL is unknown, use CompareSQL.
func Compare(a, b Value, coll Collation) int {
	ra, rb := classRank(a.k), classRank(b.k)
	if ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	switch ra {
	case 0:
		return 0
	case 1:
		return compareNumbers(a, b)
	case 2:
		return coll.Compare(a.s, b.s)
	}
	return strings.Compare(a.s, b.s)
}

// CompareSQL is the comparison behind =, <, >, <=, >=, <>: it reports
// null when either side is NULL (the result is unknown), else Compare's
// result. Affinity conversion is the caller's step: apply
// CompareAffinity(l, r).ApplyCompare to both sides first.
func CompareSQL(a, b Value, coll Collation) (c int, null bool) {
	if a.k == KindNull || b.k == KindNull {
		return 0, true
	}
	return Compare(a, b, coll), false
}

// Equal reports whether a and b are the same value under coll, NULLs
// equal: the test of IS, IS NOT DISTINCT FROM, DISTINCT and GROUP BY.
func Equal(a, b Value, coll Collation) bool { return Compare(a, b, coll) == 0 }

func compareNumbers(a, b Value) int {
	switch {
	case a.k == KindInt && b.k == KindInt:
		return cmp3(a.i, b.i)
	case a.k == KindInt:
		return compareIntReal(a.i, b.Real())
	case b.k == KindInt:
		return -compareIntReal(b.i, a.Real())
	}
	return compareReals(a.Real(), b.Real())
}

func cmp3[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareReals orders NaN (which SQLite never stores; it becomes NULL)
// before every other real so the order stays total.
func compareReals(x, y float64) int {
	switch {
	case x != x && y != y:
		return 0
	case x != x:
		return -1
	case y != y:
		return 1
	}
	return cmp3(x, y)
}

// compareIntReal compares an integer with a real exactly, as SQLite's
// sqlite3IntFloatCompare.
func compareIntReal(i int64, r float64) int {
	switch {
	case r != r:
		return 1
	case r < -9223372036854775808.0:
		return 1
	case r >= 9223372036854775808.0:
		return -1
	}
	y := int64(r)
	if c := cmp3(i, y); c != 0 {
		return c
	}
	return cmp3(float64(i), r)
}
