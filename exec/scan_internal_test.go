package exec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanJava: each form that reaches past the reporter's module is
// found in an answer's file, by the code or by the class name reflection
// would take; honest code (reflection on its own classes, a comment or a
// message that names the forms, an identifier that contains "native") is
// not evidence, and neither is a test file when no answer is named.
func TestScanJava(t *testing.T) {
	files := map[string]string{
		"Unsafe.java":                   "import sun.misc.Unsafe;\nclass A {}\n",
		"ByName.java":                   "class B {\n  Object u() throws Exception {\n    java.lang.reflect.Field f = Class.forName(\"sun.misc.Unsafe\").getDeclaredField(\"theUnsafe\");\n    return f;\n  }\n}\n",
		"Native.java":                   "class C {\n  // calls C code\n  private static native int peek(long a);\n}\n",
		"Load.java":                     "class D { static { System.loadLibrary(\"x\"); } }\n",
		"Agent.java":                    "import java.lang.instrument.Instrumentation;\nclass E { public static void agentmain(String a, Instrumentation i) {} }\n",
		"Mem.java":                      "class M { java.io.RandomAccessFile f() throws Exception { return new java.io.RandomAccessFile(\"/proc/self/mem\", \"r\"); } }\n",
		"Attach.java":                   "class F { Object v() throws Exception { return Class.forName(\"com.sun.tools.attach.VirtualMachine\"); } }\n",
		"Honest.java":                   "/* not sun.misc.Unsafe, no native code */\nclass G {\n  int nativeSize = 1; // native\n  String s = \"System.loadLibrary( is not called\";\n  String m = \"/proc/meminfo\";\n  char q = '\"';\n  String t = \"\"\"\n    sun.misc.Unsafe in a text block\n    \"\"\";\n  int get(H h) throws Exception {\n    java.lang.reflect.Field f = H.class.getDeclaredField(\"secret\");\n    f.setAccessible(true);\n    return f.getInt(h);\n  }\n}\nclass H { private int secret = 4; }\n",
		"src/test/java/UnsafeTest.java": "import sun.misc.Unsafe;\nclass UnsafeTest {}\n",
	}
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	want := map[string]string{"Mem.java": "proc-mem", "Unsafe.java": "unsafe", "ByName.java": "unsafe", "Native.java": "jni", "Load.java": "jni", "Agent.java": "agent", "Attach.java": "agent", "Honest.java": ""}
	for name, kind := range want {
		got := scanJava(dir, []string{name})
		if kind == "" {
			assert.Empty(t, got, name)
			continue
		}
		if assert.Len(t, got, 1, "%s: %+v", name, got) {
			assert.Equal(t, kind, got[0].Kind, name)
			assert.False(t, got[0].Static, name)
		}
	}
	all := scanJava(dir, nil)
	assert.Len(t, all, 7, "every answer form, and not the test: %+v", all)
	for _, e := range all {
		assert.True(t, e.Static, "%+v", e)
		assert.NotContains(t, e.Detail, "UnsafeTest", "a test file is trusted")
	}
	assert.Contains(t, scanJava(dir, []string{"ByName.java"})[0].Detail, "line 3")
}

// TestScanGo: an answer file's import of unsafe, //go:linkname, and the
// paths or calls that read the process's own memory are found, at their
// lines; the same words in comments and ordinary strings, and /proc files
// that are not memory, are not.
func TestScanGo(t *testing.T) {
	files := map[string]string{
		"unsafe.go": "package x\n\nimport (\n\t\"os\"\n\tu \"unsafe\"\n)\n\nvar _ = u.Sizeof(0)\nvar _ = os.Args\n",
		"link.go":   "package x\n\nimport _ \"unsafe\"\n\n//go:linkname now runtime.nanotime\nfunc now() int64\n",
		"mem.go":    "package x\n\nimport \"os\"\n\nfunc f() { os.Open(\"/proc/self/mem\") }\n",
		"vm.go":     "package x\n\nimport \"syscall\"\n\nvar n = syscall.SYS_PROCESS_VM_READV\n",
		"honest.go": "package x\n\n// not \"unsafe\", no //go:linkname\nvar s = \"import \\\"unsafe\\\" /proc/self/mem\"\nvar m = \"/proc/meminfo\"\n",
	}
	dir := t.TempDir()
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	for name, want := range map[string][]string{
		"unsafe.go": {"unsafe-import:5"}, "link.go": {"unsafe-import:3", "linkname:5"},
		"mem.go": {"proc-mem:5"}, "vm.go": {"proc-mem:5"}, "honest.go": nil,
	} {
		var got []string
		for _, e := range scanGo(dir, []string{name}) {
			assert.False(t, e.Static)
			line := e.Detail[strings.Index(e.Detail, " line ")+6:]
			got = append(got, e.Kind+":"+line[:strings.IndexByte(line, ':')])
		}
		assert.Equal(t, want, got, name)
	}
}
