package exec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adaptbench/adaptbench/exec"
)

// forgeJava is the helper of the JUnit forgeries, a class of the answer:
// each way to report both tests as passed, then a halt with status 0 so
// that the real outcomes never come.
const forgeJava = `package calc;

import java.lang.reflect.*;
import java.nio.file.*;
import java.util.*;

final class Forge {
    static final String[] TESTS = {"calc.CalcTest#add", "calc.CalcTest#addZero"};

    static Path results() throws Exception {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get("."), ".adaptbench-*")) {
            for (Path d : ds) {
                try (DirectoryStream<Path> fs = Files.newDirectoryStream(d, "*.jsonl")) {
                    for (Path f : fs) return f;
                }
            }
        }
        return null;
    }

    // reporter is the reporter's main class, in a package or not.
    static Class<?> reporter() throws Exception {
        try {
            return Class.forName("adaptbench.junit.AdaptbenchJUnitReporter");
        } catch (ClassNotFoundException e) {
            return Class.forName("AdaptbenchJUnitReporter");
        }
    }

    // emit calls every method of the reporter named emit, static or on an
    // instance made by reflection (with a key it guesses).
    static void emit() throws Exception {
        List<Class<?>> cs = new ArrayList<>();
        Class<?> r = reporter();
        cs.add(r);
        cs.addAll(Arrays.asList(r.getDeclaredClasses()));
        for (Class<?> c : cs) {
            for (Method m : c.getDeclaredMethods()) {
                if (!m.getName().equals("emit") && !m.getName().equals("write")) continue;
                if (m.getParameterCount() != 1 || m.getParameterTypes()[0] != Object[].class) continue;
                m.setAccessible(true);
                Object target = null;
                if (!Modifier.isStatic(m.getModifiers())) {
                    Constructor<?> k = c.getDeclaredConstructors()[0];
                    k.setAccessible(true);
                    if (k.getParameterCount() != 2) continue;
                    target = k.newInstance(new java.io.FileOutputStream(results().toFile(), true), "guess");
                }
                for (String t : TESTS) m.invoke(target, (Object) new Object[]{"e", "end", "test", t, "status", "passed", "message", ""});
            }
        }
    }

    // write appends the events to the results file, as the reporter would
    // write them, and copies of the reporter's own lines with their tags.
    static void write() throws Exception {
        Path p = results();
        StringBuilder b = new StringBuilder();
        List<String> lines = Files.readAllLines(p);
        for (String t : TESTS) {
            b.append("{\"e\":\"end\",\"test\":\"").append(t).append("\",\"status\":\"passed\"}\n");
            for (String l : lines) {
                int tab = l.lastIndexOf('\t');
                if (tab > 0) b.append(l.substring(0, tab).replaceFirst("\"e\":\"[a-z-]+\".*", "\"e\":\"end\",\"test\":\"" + t + "\",\"status\":\"passed\"}")).append(l.substring(tab)).append('\n');
            }
        }
        int round = -1;
        for (String l : lines) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"e\":\"round\",\"n\":([0-9]+)").matcher(l);
            if (m.find()) round = Integer.parseInt(m.group(1));
        }
        if (round >= 0) b.append("{\"e\":\"round-end\",\"n\":").append(round).append(",\"duration\":0.1}\n");
        b.append("{\"e\":\"done\",\"exit\":0}\n");
        Files.write(p, b.toString().getBytes(), StandardOpenOption.APPEND);
    }

    // reach tries the ways past a module's encapsulation that need no
    // native code: setAccessible on the key's field, a private lookup in
    // the reporter's class, and opening its package from outside. Each
    // that works is reported, then used to forge.
    static void reach() throws Exception {
        Class<?> ch = Class.forName(reporter().getName() + "$Channel");
        try {
            ch.getDeclaredField("key").setAccessible(true);
            System.err.println("forge: reached the key");
            emit();
        } catch (RuntimeException e) {
            System.err.println("forge: blocked: " + e.getClass().getName());
        }
        try {
            java.lang.invoke.MethodHandles.privateLookupIn(ch, java.lang.invoke.MethodHandles.lookup());
            System.err.println("forge: reached a private lookup");
            emit();
        } catch (IllegalAccessException | RuntimeException e) {
            System.err.println("forge: blocked: " + e.getClass().getName());
        }
        try {
            ch.getModule().addOpens(ch.getPackageName(), Forge.class.getModule());
            System.err.println("forge: opened the package");
            emit();
        } catch (RuntimeException e) {
            System.err.println("forge: blocked: " + e.getClass().getName());
        }
    }

    static void attack(String how) {
        try {
            if (how.equals("reach")) reach();
            if (how.equals("emit")) emit();
            if (how.equals("write")) write();
        } catch (Throwable e) {
            System.err.println("forge: " + e);
        }
        if (how.equals("exit")) System.exit(0);
        Runtime.getRuntime().halt(0);
    }
}
`

func forgeCalc(how string) string {
	return "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) {\n        Forge.attack(\"" + how + "\");\n        return a - b;\n    }\n}\n"
}

const forgeJUnit5Test = `package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CalcTest {
    @Test
    void add() { assertEquals(4, Calc.add(2, 2)); }

    @Test
    void addZero() { assertEquals(3, Calc.add(0, 3)); }
}
`

const forgeJUnit4Test = `package calc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CalcTest {
    @Test
    public void add() { assertEquals(4, Calc.add(2, 2)); }

    @Test
    public void addZero() { assertEquals(3, Calc.add(0, 3)); }
}
`

func javaWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	ws := t.TempDir()
	for name, src := range files {
		p := filepath.Join(ws, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
	}
	return ws
}

// TestJUnitCannotForgeItsVerdict: a wrong answer calls the reporter's emit
// by reflection for each test (statically, or on a channel it makes with a
// guessed key), reaches for the reporter's key (setAccessible, a private
// lookup, opening its package), or appends the events to the results file
// (plain, or with the tags of the reporter's own lines), then halts the
// JVM with status 0 before the real outcomes come. None of it passes, on
// JUnit 5 and JUnit 4. The reporter is a named module that opens nothing
// to the class path: reflection on it fails (strong encapsulation), which
// the answer's own messages show; lines it did not sign are evidence. A
// halt or System.exit(0) alone gives error, as before. The control, the
// wrong answer alone, fails.
func TestJUnitCannotForgeItsVerdict(t *testing.T) {
	requireJava(t)
	wrong := "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) { return a - b; }\n}\n"
	tests := []struct {
		name, calc string
		tampered   bool
		stderr     []string // what the answer said of its attempts
		reason     string
	}{
		{"control", wrong, false, nil, "the wrong answer alone fails"},
		{"reflective emit then halt", forgeCalc("emit"), false, []string{"forge: java.lang.reflect.InaccessibleObjectException"}, "the reporter's module is not open: setAccessible fails"},
		{"reach for the key then halt", forgeCalc("reach"), false, []string{"forge: blocked: java.lang.reflect.InaccessibleObjectException", "forge: blocked: java.lang.IllegalAccessException", "forge: blocked: java.lang.IllegalCallerException"}, "no way past the module's encapsulation"},
		{"results file then halt", forgeCalc("write"), true, nil, "lines the reporter did not sign"},
		{"halt", forgeCalc("halt"), false, nil, "Runtime.halt(0) mid-test is an error"},
		{"exit", forgeCalc("exit"), false, nil, "System.exit(0) mid-test is an error"},
	}
	for _, version := range []struct{ name, test string }{{"junit5", forgeJUnit5Test}, {"junit4", forgeJUnit4Test}} {
		for _, tc := range tests {
			t.Run(version.name+"/"+tc.name, func(t *testing.T) {
				ws := javaWorkspace(t, map[string]string{
					"src/main/java/calc/Calc.java":     tc.calc,
					"src/main/java/calc/Forge.java":    forgeJava,
					"src/test/java/calc/CalcTest.java": version.test,
				})
				s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: ws})
				t.Logf("tampered: %+v; stderr: %s", s.Tampered, s.Run.Stderr)
				require.Nil(t, s.Compile)
				require.Len(t, s.Tests, 2, "both tests are reported")
				for _, tr := range s.Tests {
					assert.NotEqual(t, exec.TestPassed, tr.Status, "%s: %s passed", tc.reason, tr.Name)
				}
				assert.Equal(t, tc.tampered, s.Forged(), "%s: evidence %+v", tc.reason, s.Tampered)
				for _, want := range tc.stderr {
					assert.Contains(t, string(s.Run.Stderr), want, tc.reason)
				}
				assert.NotContains(t, string(s.Run.Stderr), "forge: reached", tc.reason)
				assert.NotContains(t, string(s.Run.Stderr), "forge: opened", tc.reason)
			})
		}
	}
}

// TestJUnitRoundsCannotForgeTheirVerdict: the same forgeries in a round of
// TestRounds never make the round pass: the round is left undecided (to
// be run alone with Test, which reports the evidence) or decided as not
// passing, and the rounds around it are decided as before.
func TestJUnitRoundsCannotForgeTheirVerdict(t *testing.T) {
	requireJava(t)
	ws := javaWorkspace(t, map[string]string{
		"src/main/java/calc/Calc.java":     "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) { return a + b; }\n}\n",
		"src/main/java/calc/Forge.java":    forgeJava,
		"src/test/java/calc/CalcTest.java": forgeJUnit5Test,
	})
	// Each variant's Calc, compiled in the sandbox into a class directory
	// of its own.
	variant := func(name, src string) string {
		// The source in a hidden directory, which the build skips.
		dir, srcDir := "variants/"+name, ".variants/"+name+"/calc"
		require.NoError(t, os.MkdirAll(filepath.Join(ws, srcDir), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ws, srcDir, "Calc.java"), []byte(src), 0o644))
		res, err := driverSandbox(t).Run(context.Background(), exec.Job{Dir: ws, Args: []string{"javac", "-proc:none", "-d", dir, "-sourcepath", "src/main/java", srcDir + "/Calc.java"}})
		require.NoError(t, err)
		require.Equal(t, exec.StatusOK, res.Status, "javac: %s", res.Stderr)
		return dir
	}
	both := []string{"calc.CalcTest#add", "calc.CalcTest#addZero"}
	rounds := []exec.JUnitRound{
		{Tests: both},
		{Classes: []string{variant("emit", forgeCalc("emit"))}, Tests: both},
		{Tests: both},
		{Classes: []string{variant("write", forgeCalc("write"))}, Tests: both},
		{Tests: both},
	}
	suites, err := exec.JUnit{}.TestRounds(context.Background(), driverSandbox(t), exec.TestSpec{Dir: ws, Limits: exec.Limits{CPUTime: 5 * time.Second}}, rounds)
	require.NoError(t, err)
	for _, i := range []int{1, 3} {
		if s := suites[i]; s != nil {
			logSuite(t, s)
			for _, tr := range s.Tests {
				assert.NotEqual(t, exec.TestPassed, tr.Status, "round %d: %s passed", i, tr.Name)
			}
		}
	}
	for _, i := range []int{0, 2, 4} {
		if suites[i] == nil {
			continue // after a forging round, in a new JVM or left to Test
		}
		checkSuite(t, suites[i], []wantTest{{"calc.CalcTest#add", exec.TestPassed}, {"calc.CalcTest#addZero", exec.TestPassed}})
	}
	require.NotNil(t, suites[0], "the first round is decided")
}

// TestJUnitListenerCallsFromTheWorkspace: code of the workspace that got
// hold of the engine's own listener (here an extension of the answer's,
// reading it out of its ExtensionContext by reflection) reports every
// test of its class as passed through it, then halts. The events reach
// the reporter through the JUnit Platform's dispatch, as real ones do,
// but with the workspace's class deeper on the stack: the reporter drops
// them and reports the call, so nothing passes and the run is evidence.
func TestJUnitListenerCallsFromTheWorkspace(t *testing.T) {
	requireJava(t)
	const ext = `package calc;

import java.lang.reflect.Field;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;

public class Ext implements AfterEachCallback {
    @Override
    public void afterEach(ExtensionContext ctx) throws Exception {
        EngineExecutionListener l = null;
        TestDescriptor d = null;
        for (Class<?> c = ctx.getClass(); c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                f.setAccessible(true);
                Object v = f.get(ctx);
                if (v instanceof EngineExecutionListener) l = (EngineExecutionListener) v;
                if (v instanceof TestDescriptor && d == null) d = (TestDescriptor) v;
            }
        }
        for (TestDescriptor t : d.getParent().get().getChildren()) l.executionFinished(t, TestExecutionResult.successful());
        Runtime.getRuntime().halt(0);
    }
}
`
	test := strings.Replace(forgeJUnit5Test, "class CalcTest {", "@org.junit.jupiter.api.extension.ExtendWith(Ext.class)\nclass CalcTest {", 1)
	ws := javaWorkspace(t, map[string]string{
		"src/main/java/calc/Calc.java":     "package calc;\n\npublic final class Calc {\n    public static int add(int a, int b) { return a - b; }\n}\n",
		"src/main/java/calc/Ext.java":      ext,
		"src/test/java/calc/CalcTest.java": test,
	})
	s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: ws})
	t.Logf("tampered: %+v; stderr: %s", s.Tampered, s.Run.Stderr)
	require.Nil(t, s.Compile)
	require.Len(t, s.Tests, 2, "both tests are reported")
	for _, tr := range s.Tests {
		assert.NotEqual(t, exec.TestPassed, tr.Status, "%s passed", tr.Name)
	}
	require.True(t, s.Forged(), "evidence %+v", s.Tampered)
	assert.Equal(t, "reporter-call", s.Tampered[0].Kind)
	assert.Contains(t, s.Tampered[0].Detail, "calc.Ext.afterEach")
}

// TestJUnitEncapsulationEscapes: an answer that uses sun.misc.Unsafe, the
// one way past the reporter's module without native code or an agent, is
// evidence (not Static: adapt weighs it against the reference's run), even
// when its tests pass. Honest code is not: an answer that reads its own
// private fields by reflection (setAccessible on its own classes works on
// the class path), and a test file of the task that uses Unsafe (tests
// are trusted), pass with no evidence.
func TestJUnitEncapsulationEscapes(t *testing.T) {
	requireJava(t)
	honest := `package calc;

public final class Calc {
    private final int base = 0;

    public static int add(int a, int b) {
        try {
            java.lang.reflect.Field f = Calc.class.getDeclaredField("base");
            f.setAccessible(true);
            return a + b + f.getInt(new Calc());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
`
	unsafe := `package calc;

public final class Calc {
    public static int add(int a, int b) {
        try {
            java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return ((sun.misc.Unsafe) f.get(null)).addressSize() > 0 ? a + b : 0;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
`
	unsafeTest := strings.Replace(forgeJUnit5Test, "    @Test\n    void add()", "    @Test\n    void unsafe() throws Exception { assertEquals(true, sun.misc.Unsafe.class.getDeclaredField(\"theUnsafe\") != null); }\n\n    @Test\n    void add()", 1)
	for _, tc := range []struct {
		name, calc, test string
		kinds            []string
	}{
		{"reflection on its own class, Unsafe in the test", honest, unsafeTest, nil},
		{"Unsafe in the answer", unsafe, forgeJUnit5Test, []string{"unsafe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := javaWorkspace(t, map[string]string{
				"src/main/java/calc/Calc.java":     tc.calc,
				"src/test/java/calc/CalcTest.java": tc.test,
			})
			s := runDriver(t, exec.JUnit{}, exec.TestSpec{Dir: ws, Answer: []string{"src/main/java/calc/Calc.java"}})
			require.Nil(t, s.Compile)
			require.NotEmpty(t, s.Tests)
			for _, tr := range s.Tests {
				assert.Equal(t, exec.TestPassed, tr.Status, "%s: %s", tr.Name, tr.Message)
			}
			var kinds []string
			for _, e := range s.Tampered {
				kinds = append(kinds, e.Kind)
				assert.False(t, e.Static, "%+v", e)
			}
			assert.Equal(t, tc.kinds, kinds, "evidence %+v", s.Tampered)
		})
	}
}
