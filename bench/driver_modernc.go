package main

import _ "modernc.org/sqlite" // the pure-Go driver named "sqlite"
