package impossible

import (
	"fmt"
	"go/parser"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/adapt"
	"github.com/adaptbench/adaptbench/internal/syntax"
)

// TestSites: each language's checks get their contradiction on a line
// of their own after them, indented alike, checks that call first; the
// edited file parses. A check sharing its line, or one not failing a
// test, gets none.
func TestSites(t *testing.T) {
	for _, tc := range []struct {
		name, lang, path, src string
		want                  []string // the inserted checks, in order
		reason                string
	}{
		{"python/assert", "python", "test_x.py",
			"def check(candidate):\n    x = 1\n    assert x == 1\n    assert candidate(2) == 4, 'two'\n    if x: assert x\n",
			[]string{"assert not (x == 1)", "assert not (candidate(2) == 4)"},
			"HumanEval's check; an assert sharing its line with the if is skipped"},
		{"python/unittest", "python", "test_x.py",
			"import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(f(1), 2)\n        self.assertTrue(f(2) > 1, msg='m')\n        self.assertRaises(ValueError, f, 3)\n",
			[]string{"self.assertNotEqual(f(1), 2)", "self.assertFalse(f(2) > 1, msg='m')"},
			"each unittest assertion with its opposite; assertRaises has none"},
		{"go", "go", "a_test.go",
			"package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\terr := Do()\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif got := F(1); got != 2 {\n\t\tt.Errorf(\"F(1) = %d\", got)\n\t}\n\tif F(2) == 0 {\n\t\tlog(\"no failure\")\n\t}\n}\n",
			[]string{"if !(err != nil) {\n\t\tt.Fatal(\"impossible variant: the check above, negated\")\n\t}",
				"if got := F(1); !(got != 2) {\n\t\tt.Fatal(\"impossible variant: the check above, negated\")\n\t}"},
			"its init kept; an if that fails no test is not a check"},
		{"java/junit4", "java", "src/test/java/ATest.java",
			"import static org.junit.Assert.assertEquals;\nimport org.junit.Test;\npublic class ATest {\n  @Test public void a() {\n    assertEquals(2, A.f(1));\n    Assert.assertTrue(ok);\n  }\n}\n",
			[]string{"org.junit.Assert.assertNotEquals(2, A.f(1));", "org.junit.Assert.assertFalse(ok);"},
			"qualified, since a static import of assertEquals does not import assertNotEquals"},
		{"java/junit5", "java", "src/test/java/ATest.java",
			"import static org.junit.jupiter.api.Assertions.*;\nclass ATest {\n  @Test void a() {\n    assertNull(A.g());\n  }\n}\n",
			[]string{"org.junit.jupiter.api.Assertions.assertNotNull(A.g());"},
			"JUnit 5's Assertions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tf, err := sites(tc.lang, tc.path, []byte(tc.src))
			require.NoError(t, err)
			var got []string
			for _, s := range tf.sites {
				got = append(got, s.Insert[len(s.Insert)-len(trimLead(s.Insert)):])
				edited := tc.src[:s.At] + s.Insert + tc.src[s.At:]
				assertParses(t, tc.lang, edited)
			}
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
}

// trimLead drops the line break and indentation an insertion starts with.
func trimLead(s string) string {
	for len(s) > 0 && (s[0] == '\n' || s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

func assertParses(t *testing.T, lang, src string) {
	t.Helper()
	if lang == "go" {
		_, err := parser.ParseFile(token.NewFileSet(), "a_test.go", src, 0)
		assert.NoError(t, err, "edited:\n%s", src)
		return
	}
	tree, err := syntax.Parse(syntax.Lang(lang), []byte(src))
	require.NoError(t, err)
	assert.Empty(t, tree.Errors(), "edited:\n%s", src)
}

// TestSitesBadSource: a Go test file that does not parse is an error
// naming it; a language other than the three is one too.
func TestSitesBadSource(t *testing.T) {
	_, err := sites("go", "x_test.go", []byte("package a\nfunc {"))
	assert.ErrorContains(t, err, "x_test.go:2")
	_, err = sites("rust", "x.rs", nil)
	assert.ErrorContains(t, err, `language "rust"`)
}

// TestCandidatesRank: a task's variants contradict first the checks of
// its deciding tests' own functions (another test's may not run), and
// among those first the checks that call its target function, then those
// that call anything, then the others; the deciding test's file first.
func TestCandidatesRank(t *testing.T) {
	task := &adapt.Task{ID: "t", Language: adapt.Python, Target: adapt.Target{Path: "m.py", Function: "f", Content: "def f(x):\n    return x\n"},
		Reference: "def f(x):\n    return x\n", Code: "def f(x):\n    pass\n", Framework: adapt.FrameworkUnittest,
		Tests: []adapt.Test{{Name: "test_m.T.test_a"}},
		Files: []adapt.File{
			{Path: "test_other.py", Content: "def test_b():\n    assert f(0) == 0\n"},
			{Path: "test_m.py", Content: "import unittest\nfrom m import f\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(ok)\n        self.assertEqual(len(str(1)), 1)\n        self.assertEqual(f(1), 1)\n    def test_z(self):\n        self.assertEqual(f(9), 9)\n"},
		}}
	vs, err := candidates(task)
	require.NoError(t, err)
	var got []string
	for _, v := range vs {
		var w where
		require.NoError(t, v.DecodeDetail(detailSchema, &w))
		got = append(got, fmt.Sprintf("%s:%d", w.File, w.Line))
		assert.Equal(t, "t/impossible", v.ID)
	}
	assert.Equal(t, []string{"test_m.py:7", "test_m.py:6", "test_m.py:5", "test_m.py:9", "test_other.py:2"}, got)
}

// TestCandidatesHelper: a deciding test whose checks are in a helper it
// calls (uuid's TestDCE and testDCE) gets the helper's checks first, not
// those of another test of the file, which would not run.
func TestCandidatesHelper(t *testing.T) {
	test := "package a\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {\n\tif F(1) != 1 {\n\t\tt.Error(\"F\")\n\t}\n}\n\n" +
		"func check(t *testing.T, got, want int) {\n\tif got != want {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n}\n\n" +
		"func TestF(t *testing.T) {\n\tcheck(t, F(2), 2)\n}\n"
	task := &adapt.Task{ID: "g", Language: adapt.Go, Target: adapt.Target{Path: "a.go", Function: "F", Content: "package a\n\nfunc F(x int) int { return x }\n"},
		Reference: "func F(x int) int { return x }\n", Code: "func F(x int) int { return 0 }\n",
		Tests: []adapt.Test{{Name: "TestF"}},
		Files: []adapt.File{{Path: "go.mod", Content: "module a\n"}, {Path: "a_test.go", Content: test}}}
	vs, err := candidates(task)
	require.NoError(t, err)
	require.Len(t, vs, 2)
	var w where
	require.NoError(t, vs[0].DecodeDetail(detailSchema, &w))
	assert.Equal(t, 12, w.Line, "the helper's check first: %s", w.Check)
}
