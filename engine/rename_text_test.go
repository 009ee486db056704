package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTextEdit_Set_KeepsQuotingAndSpacing(t *testing.T) {
	sql := `SELECT a ,"a", t.a FROM t`
	e := newTextEdit(sql, false)
	e.set(e.at(7), "a", "b")
	e.set(e.at(10), "a", "b")
	e.part(15, 0, "a", "b")
	e.part(15, 1, "t", "u")
	require.False(t, e.failed)
	assert.Equal(t, `SELECT b ,"b", u.b FROM t`, e.String())
}

func TestTextEdit_Set_QuoteForcesQuotes(t *testing.T) {
	e := newTextEdit("x + y", true)
	e.set(0, "x", "z")
	assert.Equal(t, `"z" + y`, e.String())
}

func TestTextEdit_Set_WrongToken_Fails(t *testing.T) {
	e := newTextEdit("x + y", false)
	e.set(e.at(4), "x", "z")
	assert.True(t, e.failed, "a mark that does not find the old name fails the edit")
	e = newTextEdit("x + y", false)
	e.part(3, 0, "x", "z")
	assert.True(t, e.failed, "no token starts at byte 3")
}

func TestQuotedNewName_LastName(t *testing.T) {
	assert.True(t, quotedNewName(`ALTER TABLE t RENAME COLUMN a TO "b"`))
	assert.False(t, quotedNewName(`ALTER TABLE "t" RENAME COLUMN "a" TO b`))
}
