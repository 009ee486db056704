package funcs

// appendJSONStringBody appends s escaped for a JSON string, without the
// quotes, as SQLite's jsonAppendString does: quote and backslash escaped,
// control characters as \b \f \n \r \t or \u00XX.
func appendJSONStringBody(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c >= 0x20:
			b = append(b, c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexLower[c>>4], hexLower[c&15])
		}
	}
	return b
}

// appendJSONString appends s as a quoted JSON string.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendJSONStringBody(b, s)
	return append(b, '"')
}
