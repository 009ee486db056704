package catalog

import "github.com/ladybugsql/ladybug/engine/types"

// Column is one table column.
type Column struct {
	Name     string
	DeclType string // declared type, upper-cased as written ("VARCHAR(255)"), "" when absent
	Affinity types.Affinity
	NotNull  bool
	// NotNullConflict is the NOT NULL constraint's ON CONFLICT clause
	// ("" = ABORT): IGNORE drops the row, REPLACE stores the default.
	NotNullConflict string
	// Default is the DEFAULT expression's SQL text, "" when none.
	Default    string
	Collate    string // "" = BINARY
	PrimaryKey bool   // part of the primary key
	Hidden     bool
	// Generated is the generation expression's SQL text, "" for stored data.
	Generated string
	// Stored marks a generated column declared STORED (VIRTUAL otherwise);
	// ladybug keeps both kinds' values in the row, and PRAGMA table_xinfo
	// reports the declared kind.
	Stored bool
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
