package types

import "strings"

// Collation orders text. The zero value is BINARY.
type Collation uint8

// The built-in collations, as in SQLite.
const (
	// CollBinary compares bytes (memcmp, then length).
	CollBinary Collation = iota
	// CollNoCase folds ASCII A-Z to a-z first; other bytes compare as is.
	CollNoCase
	// CollRTrim ignores trailing spaces (0x20), then compares bytes.
	CollRTrim
)

// CollationByName returns the collation named name, case-insensitively.
func CollationByName(name string) (Collation, bool) {
	switch strings.ToUpper(name) {
	case "BINARY":
		return CollBinary, true
	case "NOCASE":
		return CollNoCase, true
	case "RTRIM":
		return CollRTrim, true
	}
	return CollBinary, false
}

// String returns the collation's SQL name.
func (c Collation) String() string {
	switch c {
	case CollNoCase:
		return "NOCASE"
	case CollRTrim:
		return "RTRIM"
	}
	return "BINARY"
}

// Compare returns -1, 0 or +1 as a sorts before, with or after b.
func (c Collation) Compare(a, b string) int {
	switch c {
	case CollNoCase:
		return compareNoCase(a, b)
	case CollRTrim:
		return strings.Compare(strings.TrimRight(a, " "), strings.TrimRight(b, " "))
	}
	return strings.Compare(a, b)
}

// lowerASCII folds one byte as SQLite's sqlite3UpperToLower does.
func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

func compareNoCase(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		x, y := lowerASCII(a[i]), lowerASCII(b[i])
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}
