module github.com/ladybugsql/ladybug/examples/migrate

go 1.26.0

replace github.com/ladybugsql/ladybug => ../../

replace github.com/ladybugsql/ladybug/migrate => ../../migrate

require (
	github.com/golang-migrate/migrate/v4 v4.20.1
	github.com/ladybugsql/ladybug v0.0.0
	github.com/ladybugsql/ladybug/migrate v0.0.0-00010101000000-000000000000
	github.com/pressly/goose/v3 v3.30.1
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/mfridman/interpolate v0.2.0 // indirect
	github.com/sethvargo/go-retry v0.5.0 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sync v0.25.0 // indirect
)
