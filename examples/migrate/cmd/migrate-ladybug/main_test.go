package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun_UpGotoVersionDown(t *testing.T) {
	url := "ladybug://" + filepath.Join(t.TempDir(), "app.db")
	base := []string{"-path", "../../golang_migrations", "-database", url}
	var out, errb bytes.Buffer
	cmd := func(args ...string) error { return run(append(append([]string{}, base...), args...), &out, &errb) }

	require.NoError(t, cmd("up"))
	require.NoError(t, cmd("up"), "nothing to do is not an error")
	out.Reset()
	require.NoError(t, cmd("version"))
	assert.Equal(t, "2\n", out.String())
	require.NoError(t, cmd("goto", "1"))
	out.Reset()
	require.NoError(t, cmd("version"))
	assert.Equal(t, "1\n", out.String())
	require.NoError(t, cmd("down", "1"))
	assert.Error(t, cmd("version"), "no version after the last down")
	require.NoError(t, cmd("up", "2"))
	require.NoError(t, cmd("drop"))
	assert.Error(t, cmd("goto", "x"))
	assert.Error(t, cmd("sideways"))
}
