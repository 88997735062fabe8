package cmdkit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpen(t *testing.T) {
	t.Chdir(t.TempDir())
	var log bytes.Buffer
	// Default: a new directory each run, never an earlier run's.
	a, err := OpenOutDir("", "demo", &log)
	require.NoError(t, err)
	b, err := OpenOutDir("", "demo", &log)
	require.NoError(t, err)
	assert.Equal(t, "demo-1", a.Path())
	assert.Equal(t, "demo-2", b.Path())
	// A named directory is created with its parents.
	c, err := OpenOutDir(filepath.Join("x", "y"), "demo", &log)
	require.NoError(t, err)
	assert.DirExists(t, c.Path())

	log.Reset()
	require.NoError(t, c.Write("r.txt", func(w io.Writer) error { _, err := io.WriteString(w, "hi"); return err }))
	assert.Equal(t, "wrote "+filepath.Join("x", "y", "r.txt")+"\n", log.String())
	got, err := os.ReadFile(c.Join("r.txt"))
	require.NoError(t, err)
	assert.Equal(t, "hi", string(got))

	// A failed write leaves neither a file nor a temporary one.
	log.Reset()
	err = c.Write("bad.txt", func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") })
	require.ErrorContains(t, err, "boom")
	entries, _ := os.ReadDir(c.Path())
	assert.Len(t, entries, 1)
	assert.Empty(t, log.String())

	// A file where the directory should be: an error naming the flag.
	require.NoError(t, os.WriteFile("f", nil, 0o644))
	_, err = OpenOutDir("f", "demo", &log)
	assert.ErrorContains(t, err, "-out")
}
