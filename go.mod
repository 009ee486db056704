module github.com/ladybugsql/ladybug

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/hashicorp/golang-lru/v2 v2.0.7
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
