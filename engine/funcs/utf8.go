package funcs

// SQLite walks UTF-8 without validating it: a byte ≥ 0xC0 starts a
// character and swallows the continuation bytes (0x80-0xBF) after it; any
// other byte, a stray continuation included, is one character. These
// helpers do the same so character counts and offsets match.

// nextChar returns the index just past the character starting at i.
func nextChar(s string, i int) int {
	c := s[i]
	i++
	if c >= 0xc0 {
		for i < len(s) && s[i]&0xc0 == 0x80 {
			i++
		}
	}
	return i
}

// charCount returns the number of characters in s.
func charCount(s string) int {
	n := 0
	for i := 0; i < len(s); i = nextChar(s, i) {
		n++
	}
	return n
}

// decodeChar decodes the character at i as SQLite's sqlite3Utf8Read does
// (overlong and surrogate forms map to U+FFFD) and returns it with the
// index past it.
func decodeChar(s string, i int) (rune, int) {
	c := rune(s[i])
	i++
	if c < 0xc0 {
		return c, i
	}
	c = rune(utf8Trans1[c-0xc0])
	for i < len(s) && s[i]&0xc0 == 0x80 {
		c = c<<6 + rune(s[i]&0x3f)
		i++
	}
	if c < 0x80 || (c&^0x7ff) == 0xd800 || (c&^1) == 0xfffe {
		c = 0xfffd
	}
	return c, i
}

// utf8Trans1 maps a lead byte 0xC0.. to its payload bits.
var utf8Trans1 = [64]byte{
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00, 0x01, 0x02, 0x03, 0x00, 0x01, 0x00, 0x00,
}

// appendRune appends c in UTF-8 as SQLite writes it (any value up to
// 0x10FFFF, surrogates included).
func appendRune(b []byte, c rune) []byte {
	switch {
	case c < 0x80:
		return append(b, byte(c))
	case c < 0x800:
		return append(b, 0xc0|byte(c>>6), 0x80|byte(c&0x3f))
	case c < 0x10000:
		return append(b, 0xe0|byte(c>>12), 0x80|byte(c>>6&0x3f), 0x80|byte(c&0x3f))
	}
	return append(b, 0xf0|byte(c>>18), 0x80|byte(c>>12&0x3f), 0x80|byte(c>>6&0x3f), 0x80|byte(c&0x3f))
}
