package syntax

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseNodes(t *testing.T) {
	src := []byte("import os\n\nasync def f(a, b=1):\n    return a.b + b\n")
	root, err := ParseNodes(Python, src)
	require.NoError(t, err)
	assert.Equal(t, "module", root.Type)
	assert.False(t, root.Err)
	fn := root.Children[1]
	assert.Equal(t, "function_definition", fn.Type)
	assert.True(t, fn.Has("async"), "anonymous keywords are kept")
	assert.Equal(t, "f", fn.Child("name").Text(src))
	assert.Equal(t, 3, fn.Line)
	assert.Equal(t, 4, fn.EndLine)
	var ids []string
	for _, id := range fn.Identifiers() {
		ids = append(ids, id.Field+":"+id.Text(src))
	}
	assert.Equal(t, []string{"name:f", ":a", "name:b", "object:a", "attribute:b", "right:b"}, ids)
	assert.Len(t, fn.Child("parameters").NamedChildren(), 2)

	bad, err := ParseNodes(Python, []byte("def f(:\n"))
	require.NoError(t, err)
	assert.True(t, bad.Err, "syntax errors are flagged")
	_, err = ParseNodes(Lang("cobol"), nil)
	assert.Error(t, err)
}
