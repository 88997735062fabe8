// The JUnit reporter of package exec (see driver_junit.go). The driver
// compiles it once per process on the host and runs it in the sandbox as
//
//     java -cp CLASSES:CLASSPATH:REPORTER AdaptbenchJUnitReporter RESULTS SCAN... -- [NAME...]
//
// It runs the tests of the JUnit Platform (Jupiter, and JUnit 4 through the
// Vintage engine) found in the class directories SCAN, or those NAME
// selects ("pkg.Class" or "pkg.Class#method"), and appends one JSON event a
// line to RESULTS as the tests run (the format is in driver_events.go).

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

final class AdaptbenchJUnitReporter implements TestExecutionListener {
    private static FileOutputStream out;

    static synchronized void emit(String... kv) {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i + 1 < kv.length; i += 2) {
            if (i > 0) b.append(',');
            quote(b, kv[i]);
            b.append(':');
            String v = kv[i + 1];
            if (v.startsWith("\u0000")) b.append(v.substring(1)); // raw JSON
            else quote(b, v);
        }
        b.append("}\n");
        try {
            out.write(b.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // The results file is gone; nothing to report to.
        }
    }

    static String raw(String json) { return "\u0000" + json; }

    static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20 || Character.isSurrogate(c) && !validSurrogate(s, i)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        b.append('"');
    }

    static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    // ---- the listener ----

    private TestPlan plan;
    private final Map<String, Long> startNanos = new HashMap<>();
    private final Set<String> ended = new HashSet<>();

    String name(TestIdentifier id) {
        Optional<TestSource> src = id.getSource();
        Optional<TestIdentifier> parent = plan.getParent(id);
        if (src.isPresent() && src.get() instanceof MethodSource) {
            MethodSource m = (MethodSource) src.get();
            boolean underClass = parent.isPresent() && parent.get().getSource().isPresent()
                    && parent.get().getSource().get() instanceof ClassSource;
            if (underClass) return m.getClassName() + "#" + m.getMethodName();
        }
        if (parent.isPresent() && parent.get().getSource().isPresent()
                && parent.get().getSource().get() instanceof MethodSource) {
            // An invocation of a parameterized test, a repeated test or a
            // dynamic test: name it after its factory and its index.
            List<UniqueId.Segment> segs = UniqueId.parse(id.getUniqueId()).getSegments();
            String v = segs.get(segs.size() - 1).getValue();
            return name(parent.get()) + "[" + (v.startsWith("#") ? v.substring(1) : v) + "]";
        }
        if (src.isPresent() && src.get() instanceof ClassSource) {
            return ((ClassSource) src.get()).getClassName();
        }
        return id.getLegacyReportingName();
    }

    List<TestIdentifier> testsUnder(TestIdentifier c) {
        List<TestIdentifier> all = new ArrayList<>();
        for (TestIdentifier d : plan.getDescendants(c)) {
            if (d.isTest()) all.add(d);
        }
        return all;
    }

    void end(TestIdentifier id, String status, String message) {
        String n = name(id);
        if (!ended.add(n)) return;
        Long t0 = startNanos.remove(id.getUniqueId());
        double secs = t0 == null ? 0 : (System.nanoTime() - t0) / 1e9;
        emit("e", "end", "test", n, "status", status, "message", message, "duration", raw(Double.toString(secs)));
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        StringBuilder b = new StringBuilder("[");
        Set<String> names = new LinkedHashSet<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier t : testsUnder(root)) names.add(name(t));
        }
        for (String n : names) {
            if (b.length() > 1) b.append(',');
            quote(b, n);
        }
        emit("e", "plan", "tests", raw(b.append(']').toString()));
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (id.isTest()) {
            startNanos.put(id.getUniqueId(), System.nanoTime());
            emit("e", "start", "test", name(id));
        }
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        String why = reason == null ? "" : reason;
        if (id.isTest()) {
            end(id, "skipped", why);
            return;
        }
        for (TestIdentifier t : testsUnder(id)) end(t, "skipped", why);
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult r) {
        String status;
        String message = "";
        Throwable t = r.getThrowable().orElse(null);
        switch (r.getStatus()) {
            case SUCCESSFUL:
                status = "passed";
                break;
            case ABORTED:
                status = "skipped";
                message = t == null ? "aborted" : "assumption failed: " + t.getMessage();
                break;
            default:
                status = classify(t);
                message = trace(t);
        }
        if (id.isTest()) {
            end(id, status, message);
            return;
        }
        if (r.getStatus() == TestExecutionResult.Status.SUCCESSFUL) return;
        // A class (or other container) failed: in @BeforeAll, say, before
        // its tests ran, or in @AfterAll after they did.
        boolean anyRan = false;
        for (TestIdentifier d : testsUnder(id)) {
            if (ended.contains(name(d))) anyRan = true;
        }
        if (!anyRan && !testsUnder(id).isEmpty()) {
            String why = r.getStatus() == TestExecutionResult.Status.ABORTED ? "skipped" : "error";
            for (TestIdentifier d : testsUnder(id)) end(d, why, name(id) + " failed:\n" + message);
        } else {
            if (!ended.add(name(id))) return;
            emit("e", "end", "test", name(id), "status", status.equals("skipped") ? "skipped" : "error",
                    "message", name(id) + " failed after its tests ran:\n" + message);
        }
    }

    static String classify(Throwable t) {
        if (t == null) return "error";
        if (t instanceof AssertionError) return "failed";
        if (t instanceof java.util.concurrent.TimeoutException) return "timeout";
        String cn = t.getClass().getName();
        if (cn.equals("org.junit.runners.model.TestTimedOutException")) return "timeout";
        return "error";
    }

    // trace returns the throwable's stack trace without the frames of the
    // test framework and of reflection.
    static String trace(Throwable t) {
        if (t == null) return "";
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        StringBuilder b = new StringBuilder();
        int kept = 0;
        for (String line : w.toString().split("\n")) {
            String l = line.trim();
            boolean frame = l.startsWith("at ");
            if (frame && (l.startsWith("at org.junit.") || l.startsWith("at java.base/jdk.internal.")
                    || l.startsWith("at java.base/java.lang.reflect.") || l.startsWith("at java.base/java.util.")
                    || l.startsWith("at AdaptbenchJUnitReporter"))) {
                continue;
            }
            if (frame && ++kept > 30) continue;
            b.append(line.replace("\r", "")).append('\n');
        }
        return b.toString().trim();
    }

    // ---- main ----

    public static void main(String[] args) throws Exception {
        out = new FileOutputStream(args[0], true);
        emit("e", "hello", "v", raw("1"));
        // The same on stderr, which the job cannot take back.
        System.err.print("\u001eadaptbench reporter started\n");
        System.err.flush();
        List<String> scan = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean sel = false;
        for (int i = 1; i < args.length; i++) {
            if (!sel && args[i].equals("--")) {
                sel = true;
            } else if (sel) {
                names.add(args[i]);
            } else {
                scan.add(args[i]);
            }
        }
        List<DiscoverySelector> selectors = new ArrayList<>();
        LauncherDiscoveryRequestBuilder req = LauncherDiscoveryRequestBuilder.request();
        if (names.isEmpty()) {
            Set<java.nio.file.Path> roots = new LinkedHashSet<>();
            for (String s : scan) roots.add(Paths.get(s).toAbsolutePath());
            selectors.addAll(DiscoverySelectors.selectClasspathRoots(roots));
            req.filters(ClassNameFilter.includeClassNamePatterns(ClassNameFilter.STANDARD_INCLUDE_PATTERN));
        } else {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            for (String n : names) {
                int hash = n.indexOf('#');
                String cls = hash < 0 ? n : n.substring(0, hash);
                Class<?> c;
                try {
                    c = Class.forName(cls, false, cl);
                } catch (ClassNotFoundException | LinkageError e) {
                    emit("e", "missing", "test", n);
                    continue;
                }
                if (hash < 0) {
                    selectors.add(DiscoverySelectors.selectClass(c));
                    continue;
                }
                String m = n.substring(hash + 1);
                boolean found = false;
                for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
                    for (Method meth : k.getDeclaredMethods()) {
                        if (meth.getName().equals(m)) {
                            selectors.add(DiscoverySelectors.selectMethod(c, meth));
                            found = true;
                        }
                    }
                }
                if (!found) emit("e", "missing", "test", n);
            }
        }
        AdaptbenchJUnitReporter listener = new AdaptbenchJUnitReporter();
        if (!selectors.isEmpty()) {
            LauncherDiscoveryRequest request = req.selectors(selectors).build();
            Launcher launcher = LauncherFactory.create();
            launcher.execute(request, listener);
        } else {
            emit("e", "plan", "tests", raw("[]"));
        }
        emit("e", "done", "exit", raw("0"));
        out.close();
        System.out.flush();
        System.err.flush();
        // Do not wait for threads the tests left running.
        Runtime.getRuntime().halt(0);
    }
}
