module github.com/ladybugsql/ladybug/gorm

go 1.26.0

replace github.com/ladybugsql/ladybug => ../

require (
	github.com/ladybugsql/ladybug v0.0.0
	github.com/stretchr/testify v1.12.1
	gorm.io/gorm v1.31.2
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/jinzhu/inflection v1.0.0 // indirect
	github.com/jinzhu/now v1.1.5 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/text v0.20.0 // indirect
)
