module github.com/ladybugsql/ladybug/migrate

go 1.26.0

replace github.com/ladybugsql/ladybug => ../

require (
	github.com/golang-migrate/migrate/v4 v4.20.1
	github.com/ladybugsql/ladybug v0.0.0
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
