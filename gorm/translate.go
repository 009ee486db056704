package sqlite

import (
	"errors"

	"gorm.io/gorm"

	"github.com/ladybugsql/ladybug"
)

// Translate maps a ladybug constraint error to gorm's error of the same
// meaning, by the SQLite extended result code ladybug sets on it; other
// errors are returned unchanged. gorm calls it when
// gorm.Config.TranslateError is set.
func (Dialector) Translate(err error) error {
	var le *ladybug.Error
	if !errors.As(err, &le) {
		return err
	}
	if le.Code != ladybug.CodeConstraint {
		return err
	}
	switch le.ExtendedCode {
	case ladybug.ExtConstraintUnique, ladybug.ExtConstraintPrimaryKey:
		return gorm.ErrDuplicatedKey
	case ladybug.ExtConstraintForeignKey:
		return gorm.ErrForeignKeyViolated
	case ladybug.ExtConstraintCheck:
		return gorm.ErrCheckConstraintViolated
	}
	return err
}
