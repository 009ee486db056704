//go:build ladybug && !mattn

package main

import _ "github.com/ladybugsql/ladybug" // registers the "ladybug" driver

// flavor names the variant of this binary; see flavor_default.go.
const flavor = "ladybug"
