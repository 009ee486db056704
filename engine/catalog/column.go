package catalog

// Affinity is a column's type affinity, derived from its declared type by
// SQLite's rules (section 3.1 of its datatype documentation).
type Affinity uint8

// The affinities. AffBlob is SQLite's BLOB (formerly NONE).
const (
	AffBlob Affinity = iota
	AffText
	AffNumeric
	AffInteger
	AffReal
)

// Column is one table column.
type Column struct {
	Name     string
	DeclType string // declared type, upper-cased as written ("VARCHAR(255)"), "" when absent
	Affinity Affinity
	NotNull  bool
	// Default is the DEFAULT expression's SQL text, "" when none.
	Default    string
	Collate    string // "" = BINARY
	PrimaryKey bool   // part of the primary key
	Hidden     bool
	// Generated is the generation expression's SQL text, "" for stored data.
	Generated string
}

// AffinityOf returns the affinity SQLite assigns to a declared type.
func AffinityOf(declType string) Affinity {
	up := upperASCII(declType)
	switch {
	case contains(up, "INT"):
		return AffInteger
	case contains(up, "CHAR"), contains(up, "CLOB"), contains(up, "TEXT"):
		return AffText
	case contains(up, "BLOB"), up == "":
		return AffBlob
	case contains(up, "REAL"), contains(up, "FLOA"), contains(up, "DOUB"):
		return AffReal
	}
	return AffNumeric
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func upperASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Lower returns s with ASCII letters lower-cased: the key of a name.
func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
