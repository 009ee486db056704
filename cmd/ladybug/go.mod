module github.com/ladybugsql/ladybug/cmd/ladybug

go 1.26.0

require (
	github.com/chzyer/readline v1.5.1
	github.com/creack/pty v1.1.24
	github.com/ladybugsql/ladybug v0.0.0
	github.com/mattn/go-runewidth v0.0.31
	github.com/stretchr/testify v1.12.1
	golang.org/x/term v0.48.0
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/clipperhouse/uax29/v2 v2.2.0 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/ladybugsql/ladybug => ../../
