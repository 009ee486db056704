package exec

import "github.com/ladybugsql/ladybug/engine/errs"

func notSupportedErr(feature string) error {
	return errs.New(errs.CodeNotSupported, "not supported: %s", feature)
}

func mismatch(msg string) error { return errs.New(errs.CodeMismatch, "%s", msg) }
