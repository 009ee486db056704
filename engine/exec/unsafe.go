package exec

import (
	"fmt"
	"unsafe"
)

// unsafeString views b as a string; b must not change while the string is
// in use (arena and block bytes are only rewritten after the batch that
// holds the string is gone).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

func fmtType(v any) string { return fmt.Sprintf("%T", v) }
