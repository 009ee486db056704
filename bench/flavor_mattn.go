//go:build mattn && !ladybug

package main

import _ "github.com/mattn/go-sqlite3" // the cgo driver named "sqlite3"

// flavor names the variant of this binary; see flavor_default.go.
const flavor = "mattn"
