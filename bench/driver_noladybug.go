//go:build noladybug

package main

// ladybugLinked reports whether this binary contains the ladybug driver.
// Built with -tags noladybug it does not, and ladybug cells say so.
const ladybugLinked = false
