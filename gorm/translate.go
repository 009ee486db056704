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
	switch le.ExtendedCode {
	case ladybug.ErrConstraintUnique.ExtendedCode, ladybug.ErrConstraintPrimaryKey.ExtendedCode:
		return gorm.ErrDuplicatedKey
	case ladybug.ErrConstraintForeignKey.ExtendedCode:
		return gorm.ErrForeignKeyViolated
	case ladybug.ErrConstraintCheck.ExtendedCode:
		return gorm.ErrCheckConstraintViolated
	}
	return err
}
