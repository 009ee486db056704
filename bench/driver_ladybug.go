//go:build !noladybug

package main

import _ "github.com/ladybugsql/ladybug" // registers the "ladybug" driver

// ladybugLinked reports whether this binary contains the ladybug driver.
const ladybugLinked = true
