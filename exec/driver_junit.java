// The JUnit reporter of package exec (see driver_junit.go). The driver
// compiles it once per process on the host and runs it in the sandbox as
//
//     java MODULE -cp CLASSPATH:CLASSES AdaptbenchJUnitReporter [--coverage=FILE] RESULTS SCAN... -- [NAME...]
//     java MODULE -cp CLASSPATH AdaptbenchJUnitReporter --rounds=FILE [--round-cpu-ms=N --round-wall-ms=N] RESULTS SCAN... --
//
// MODULE being "--module-path REPORTER --add-reads adaptbench.junit=ALL-UNNAMED
// --add-modules ALL-DEFAULT -m adaptbench.junit/adaptbench.junit.": the
// reporter is the named module adaptbench.junit, which exports and opens
// nothing, so that the code on the class path (the JUnit Platform, the
// tests, the code under test: the unnamed module) cannot reach its
// members by reflection (setAccessible fails: JDK 17's strong
// encapsulation), while it reads the unnamed module to drive JUnit.
//
// It runs the tests of the JUnit Platform (Jupiter, and JUnit 4 through the
// Vintage engine) found in the class directories SCAN, or those NAME
// selects (see "names" below and JUnit's doc in driver_junit.go), and
// appends one JSON event a line to RESULTS as the tests run (the format is
// in driver_events.go), each line signed with the key the host writes on
// stdin (see "the results channel" below). With --coverage, see
// "coverage" below.

package adaptbench.junit;

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
    // Raw is a JSON value emitted as is. (A String is always quoted: the
    // code under test chooses messages and names.)
    static final class Raw {
        final String json;
        Raw(String json) { this.json = json; }
    }

    // ---- the results channel ----
    //
    // The results file is in the job's workspace: the code under test can
    // read it, write it and call this class by reflection. So every line
    // is signed: "JSON\tTAG", where JSON starts with {"q":SEQ} (0, 1, ...)
    // and TAG is the first 32 hexadecimal digits of SHA-256(JSON KEY), KEY
    // being a line the host writes on stdin, which main reads before any
    // class of the workspace is loaded, and which is kept only in the
    // Channel, in a module that is not open to the code on the class
    // path: reflection cannot read it there (only sun.misc.Unsafe, JNI or
    // an agent could). A line the host cannot verify, or out of sequence, is
    // dropped and is evidence of tampering. And emit checks its caller
    // (see badCaller): an event that does not come from the reporter's own
    // code, or from the JUnit Platform's listener calls, is dropped and
    // reported as a "tamper" event.
    static final class Channel {
        private final FileOutputStream out;
        private final byte[] key;
        private final java.security.MessageDigest sha;
        private long seq;
        private int tampers;

        Channel(FileOutputStream out, String key) throws Exception {
            this.out = out;
            this.key = key.getBytes(StandardCharsets.UTF_8);
            this.sha = java.security.MessageDigest.getInstance("SHA-256");
        }

        synchronized void emit(Object... kv) {
            String bad = badCaller();
            if (bad != null) {
                if (tampers++ < 8) write("e", "tamper", "kind", "reporter-call", "message", bad);
                return;
            }
            write(kv);
        }

        private void write(Object... kv) {
            StringBuilder b = new StringBuilder("{\"q\":").append(seq++);
            for (int i = 0; i + 1 < kv.length; i += 2) {
                b.append(',');
                quote(b, (String) kv[i]);
                b.append(':');
                Object v = kv[i + 1];
                if (v instanceof Raw) b.append(((Raw) v).json);
                else quote(b, String.valueOf(v));
            }
            b.append('}');
            byte[] json = b.toString().getBytes(StandardCharsets.UTF_8);
            sha.reset();
            sha.update(json);
            byte[] sum = sha.digest(key);
            StringBuilder line = new StringBuilder(b.length() + 40).append(b).append('\t');
            for (int i = 0; i < 16; i++) line.append(Character.forDigit((sum[i] >> 4) & 15, 16)).append(Character.forDigit(sum[i] & 15, 16));
            line.append('\n');
            try {
                out.write(line.toString().getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // The results file is gone; nothing to report to.
            }
        }

        void close() throws IOException { out.close(); }
    }

    // readKey reads the host's key: one line of stdin, at most 128 bytes.
    static String readKey() throws IOException {
        StringBuilder b = new StringBuilder();
        java.io.InputStream in = new java.io.FileInputStream(java.io.FileDescriptor.in);
        for (int c; b.length() < 128 && (c = in.read()) >= 0 && c != '\n';) b.append((char) c);
        return b.toString();
    }

    static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    static final ClassValue<String> ORIGIN = new ClassValue<String>() {
        @Override
        protected String computeValue(Class<?> k) {
            ClassLoader l = k.getClassLoader();
            if (l == null || l == ClassLoader.getPlatformClassLoader()) return "jdk";
            java.security.ProtectionDomain pd = k.getProtectionDomain();
            java.security.CodeSource cs = pd == null ? null : pd.getCodeSource();
            if (cs == null || cs.getLocation() == null) return "?";
            try {
                String path = cs.getLocation().toURI().getPath();
                return path == null ? "?" : path;
            } catch (java.net.URISyntaxException e) {
                return "?";
            }
        }
    };
    static final String HERE = origin(AdaptbenchJUnitReporter.class);
    static final String LAUNCHER = origin(Launcher.class);

    // origin is where c was loaded from: "jdk" for the JDK's classes,
    // else the path of its code source (a class directory, a jar). A
    // ClassValue, which no reflection can fill with a lie.
    static String origin(Class<?> c) { return ORIGIN.get(c); }

    // badCaller says who called emit when it is not the reporter: below
    // the reporter's own frames (and the JDK's: a lambda, a forEach) the
    // caller must be the JUnit Platform launcher's listener dispatch, and
    // no class loaded from a class directory (the build's: the code under
    // test and its tests; libraries come in jars) may be deeper on the
    // stack, unless JUnit 4's RunNotifier is between them (a custom JUnit
    // 4 runner, which is test code, fires its own events). Reflection frames are not shown,
    // so a reflective call shows its caller. It returns null when the
    // call is the reporter's.
    static String badCaller() {
        return WALKER.walk(frames -> {
            java.util.Iterator<StackWalker.StackFrame> it = frames.iterator();
            boolean launcher = false, notifier = false;
            while (it.hasNext()) {
                StackWalker.StackFrame f = it.next();
                String o = origin(f.getDeclaringClass());
                if (o.equals(HERE)) {
                    if (launcher) return null; // down to the reporter's run
                    continue;
                }
                if (o.equals("jdk")) continue;
                if (!launcher) {
                    if (!o.equals(LAUNCHER) || !f.getClassName().startsWith("org.junit.platform.launcher.")) return f.getClassName() + "." + f.getMethodName() + " called the reporter";
                    launcher = true;
                    continue;
                }
                if (f.getClassName().equals("org.junit.runner.notification.RunNotifier")) notifier = true;
                if (!notifier && o.endsWith("/")) return f.getClassName() + "." + f.getMethodName() + " called the JUnit Platform's listeners";
            }
            return null;
        });
    }

    // emit sends an event of the listener's run.
    void emit(Object... kv) { ch.emit(kv); }

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

    // ---- names ----
    //
    // A test's name is derived from its unique ID and maps back to it:
    //
    //   pkg.Class#method            a test method (pkg.Outer$Inner#method for
    //                               a @Nested class); method(type,type) when
    //                               the class has several methods of that name
    //   pkg.Class#method[3]         the 3rd invocation of a parameterized or
    //                               repeated test, the 3rd dynamic test of a
    //                               @TestFactory ([2][1]: the 1st test of its
    //                               2nd dynamic container)
    //   pkg.Class                   a class (its failure in @AfterAll)
    //   [engine:e]/[type:value]...  anything else: the unique ID itself, every
    //                               character but [A-Za-z0-9._$#(),-] escaped
    //                               as %XX (ASCII) or %uXXXX
    //
    // Display names (code under test chooses them) are never part of a name.

    static final Set<String> INDEXED = new HashSet<>(java.util.Arrays.asList(
            "test-template-invocation", "dynamic-test", "dynamic-container"));

    private TestPlan plan;
    private final Map<String, String> names = new HashMap<>();
    private final Channel ch;

    AdaptbenchJUnitReporter(Channel ch) { this.ch = ch; }

    String name(TestIdentifier id) {
        String n = names.get(id.getUniqueId());
        if (n == null) {
            n = nameOf(plan, id);
            names.put(id.getUniqueId(), n);
        }
        return n;
    }

    static String nameOf(TestPlan plan, TestIdentifier id) {
        List<String> idx = new ArrayList<>();
        TestIdentifier cur = id;
        while (true) {
            Optional<TestIdentifier> parent = plan.getParent(cur);
            if (!parent.isPresent()) break;
            String m = methodName(cur, parent.get());
            if (m != null) {
                StringBuilder b = new StringBuilder(m);
                for (int i = idx.size() - 1; i >= 0; i--) b.append('[').append(idx.get(i)).append(']');
                return b.toString();
            }
            UniqueId.Segment seg = last(cur);
            String v = seg.getValue();
            if (!INDEXED.contains(seg.getType()) || !v.matches("#[1-9][0-9]{0,8}")) break;
            idx.add(v.substring(1));
            cur = parent.get();
        }
        Optional<TestSource> src = id.getSource();
        if (src.isPresent() && src.get() instanceof ClassSource && id.isContainer()) {
            String cn = ((ClassSource) src.get()).getClassName();
            if (cn.matches(JAVA_NAME)) return cn;
        }
        return encode(id.getUniqueIdObject());
    }

    static final String JAVA_ID = "[\\p{L}_$][\\p{L}\\p{N}_$]*";
    static final String JAVA_NAME = JAVA_ID + "(\\." + JAVA_ID + ")*";

    static UniqueId.Segment last(TestIdentifier id) {
        List<UniqueId.Segment> segs = id.getUniqueIdObject().getSegments();
        return segs.get(segs.size() - 1);
    }

    // methodName returns Class#method when id is a method right under its
    // class (a test, a parameterized test, a test factory), else null.
    static String methodName(TestIdentifier id, TestIdentifier parent) {
        Optional<TestSource> src = id.getSource();
        Optional<TestSource> psrc = parent.getSource();
        if (!src.isPresent() || !(src.get() instanceof MethodSource)) return null;
        if (!psrc.isPresent() || !(psrc.get() instanceof ClassSource)) return null;
        MethodSource m = (MethodSource) src.get();
        String cn = ((ClassSource) psrc.get()).getClassName();
        if (!cn.equals(m.getClassName()) || !cn.matches(JAVA_NAME) || !m.getMethodName().matches(JAVA_ID)) return null;
        String n = cn + "#" + m.getMethodName();
        Class<?> c;
        try {
            c = Class.forName(cn, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return n;
        }
        if (overloaded(c, m.getMethodName())) {
            try {
                n += "(" + paramList(m.getJavaMethod()) + ")";
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }
        return n;
    }

    // overloaded reports whether c or its superclasses declare methods
    // named name with different parameter lists.
    static boolean overloaded(Class<?> c, String name) {
        Set<List<Class<?>>> sigs = new HashSet<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            try {
                for (Method meth : k.getDeclaredMethods()) {
                    if (meth.getName().equals(name)) sigs.add(java.util.Arrays.asList(meth.getParameterTypes()));
                }
            } catch (LinkageError e) {
                return false;
            }
        }
        return sigs.size() > 1;
    }

    static final String PLAIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._$#(),-";

    static String encode(UniqueId u) {
        StringBuilder b = new StringBuilder();
        for (UniqueId.Segment s : u.getSegments()) {
            if (b.length() > 0) b.append('/');
            b.append('[');
            escape(b, s.getType());
            b.append(':');
            escape(b, s.getValue());
            b.append(']');
        }
        return b.toString();
    }

    static void escape(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (PLAIN.indexOf(c) >= 0) b.append(c);
            else if (c < 0x80) b.append(String.format("%%%02X", (int) c));
            else b.append(String.format("%%u%04X", (int) c));
        }
    }

    // decode parses a name made by encode, or returns null.
    static UniqueId decode(String n) {
        UniqueId u = null;
        for (String part : n.split("/", -1)) {
            if (part.length() < 3 || part.charAt(0) != '[' || part.charAt(part.length() - 1) != ']') return null;
            int colon = part.indexOf(':');
            if (colon < 0) return null;
            String type = unescape(part.substring(1, colon));
            String value = unescape(part.substring(colon + 1, part.length() - 1));
            if (type == null || value == null || type.isEmpty()) return null;
            u = u == null ? UniqueId.root(type, value) : u.append(type, value);
        }
        return u;
    }

    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        try {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c != '%') {
                    if (PLAIN.indexOf(c) < 0) return null;
                    b.append(c);
                } else if (i + 1 < s.length() && s.charAt(i + 1) == 'u') {
                    b.append((char) Integer.parseInt(s.substring(i + 2, i + 6), 16));
                    i += 5;
                } else {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 3), 16));
                    i += 2;
                }
            }
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return null;
        }
        return b.toString();
    }

    // ---- coverage ----
    //
    // With --coverage=FILE the JVM runs JaCoCo's agent, and the reporter
    // appends its execution data to FILE, reset each time, whenever a test
    // or a container starts or ends: the data since the last dump is a
    // session named after what ran meanwhile, "T" + unique ID + "\t" +
    // name for a test (its own execution, @BeforeEach and @AfterEach
    // included), "C" + unique ID for a container (@BeforeAll, @AfterAll,
    // argument providers, static initializers run then).

    private static FileOutputStream coverage;
    private static Object agent;
    private static Method setSession, getData;
    private final List<TestIdentifier> running = new ArrayList<>();

    static void startCoverage(String file) throws Exception {
        Class<?> rt = Class.forName("org.jacoco.agent.rt.RT");
        agent = rt.getMethod("getAgent").invoke(null);
        Class<?> ia = Class.forName("org.jacoco.agent.rt.IAgent");
        setSession = ia.getMethod("setSessionId", String.class);
        getData = ia.getMethod("getExecutionData", boolean.class);
        coverage = new FileOutputStream(file, true);
    }

    static synchronized void dump(Channel ch, String session) {
        if (coverage == null) return;
        try {
            setSession.invoke(agent, session);
            byte[] data = (byte[]) getData.invoke(agent, true);
            coverage.write(data);
        } catch (Exception e) {
            ch.emit("e", "compile", "message", "adaptbench: dump JaCoCo's execution data: " + e);
        }
    }

    // boundary dumps what ran since the last boundary, when the innermost
    // running identifier was running.last().
    void boundary() {
        if (coverage == null) return;
        if (running.isEmpty()) {
            dump(ch, "C");
            return;
        }
        TestIdentifier cur = running.get(running.size() - 1);
        String uid = cur.getUniqueIdObject().toString();
        dump(ch, cur.isTest() ? "T" + uid + "\t" + name(cur) : "C" + uid);
    }

    // ---- the listener ----

    private final Map<String, Long> startNanos = new HashMap<>();
    private final Set<String> ended = new HashSet<>();

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
        emit("e", "end", "test", n, "status", status, "message", message, "duration", new Raw(Double.toString(secs)));
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        StringBuilder b = new StringBuilder("[");
        Set<String> ns = new LinkedHashSet<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier t : testsUnder(root)) ns.add(name(t));
        }
        for (String n : ns) {
            if (b.length() > 1) b.append(',');
            quote(b, n);
        }
        emit("e", "plan", "tests", new Raw(b.append(']').toString()));
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        boundary();
        running.add(id);
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
        boundary();
        running.remove(id);
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
                    || l.startsWith("at adaptbench.junit/adaptbench.junit."))) {
                continue;
            }
            if (frame && ++kept > 30) continue;
            b.append(line.replace("\r", "")).append('\n');
        }
        return b.toString().trim();
    }

    // ---- main ----

    public static void main(String[] args) throws Exception {
        int a = 0;
        String cov = null, rounds = null;
        long roundCPU = 0, roundWall = 0;
        for (; a < args.length && args[a].startsWith("--"); a++) {
            if (args[a].startsWith("--coverage=")) cov = args[a].substring("--coverage=".length());
            else if (args[a].startsWith("--rounds=")) rounds = args[a].substring("--rounds=".length());
            else if (args[a].startsWith("--round-cpu-ms=")) roundCPU = Long.parseLong(args[a].substring("--round-cpu-ms=".length()));
            else if (args[a].startsWith("--round-wall-ms=")) roundWall = Long.parseLong(args[a].substring("--round-wall-ms=".length()));
            else break;
        }
        // The key first, before any class of the workspace is loaded.
        Channel ch = new Channel(new FileOutputStream(args[a++], true), readKey());
        ch.emit("e", "hello", "v", new Raw("1"));
        // The same on stderr, which the job cannot take back.
        System.err.print("\u001eadaptbench reporter started\n");
        System.err.flush();
        if (cov != null) {
            startCoverage(cov);
            dump(ch, "C");
        }
        List<String> scan = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean sel = false;
        for (int i = a; i < args.length; i++) {
            if (!sel && args[i].equals("--")) {
                sel = true;
            } else if (sel) {
                names.add(args[i]);
            } else {
                scan.add(args[i]);
            }
        }
        Launcher launcher = LauncherFactory.create();
        if (rounds != null) {
            runRounds(ch, launcher, rounds, roundCPU, roundWall, scan);
        } else {
            run(ch, launcher, scan, names, cov != null);
        }
        if (coverage != null) coverage.close();
        ch.emit("e", "done", "exit", new Raw("0"));
        ch.close();
        System.out.flush();
        System.err.flush();
        // Do not wait for threads the tests left running.
        Runtime.getRuntime().halt(0);
    }

    // run runs the tests names selects (all of scan's when empty) with
    // the context class loader's classes.
    static void run(Channel ch, Launcher launcher, List<String> scan, List<String> names, boolean cov) {
        List<DiscoverySelector> selectors = new ArrayList<>();
        LauncherDiscoveryRequestBuilder req = LauncherDiscoveryRequestBuilder.request();
        // Names that select what only exists while the tests run (an
        // invocation, a dynamic test) are missing if nothing ran under them.
        List<String> deferred = new ArrayList<>();
        if (names.isEmpty()) {
            Set<java.nio.file.Path> roots = new LinkedHashSet<>();
            for (String s : scan) roots.add(Paths.get(s).toAbsolutePath());
            selectors.addAll(DiscoverySelectors.selectClasspathRoots(roots));
            req.filters(ClassNameFilter.includeClassNamePatterns(ClassNameFilter.STANDARD_INCLUDE_PATTERN));
        } else {
            for (String n : names) {
                if (select(ch, launcher, n, selectors)) deferred.add(n);
            }
            // A unique ID that resolves to nothing is reported as missing,
            // not the end of every other test.
            req.configurationParameter("junit.platform.discovery.listener.default", "logging");
        }
        AdaptbenchJUnitReporter listener = new AdaptbenchJUnitReporter(ch);
        if (cov) {
            // Coverage is attributed to what runs between two events.
            req.configurationParameter("junit.jupiter.execution.parallel.enabled", "false");
        }
        if (!selectors.isEmpty()) {
            LauncherDiscoveryRequest request = req.selectors(selectors).build();
            launcher.execute(request, listener);
        } else {
            ch.emit("e", "plan", "tests", new Raw("[]"));
        }
        for (String n : deferred) {
            boolean ran = false;
            for (String e : listener.ended) ran |= selects(n, e);
            if (!ran) ch.emit("e", "missing", "test", n);
        }
        listener.boundary();
    }

    // ---- rounds ----
    //
    // With --rounds=FILE the reporter runs rounds in turn, each a run of
    // its own with a class loader of its own over the round's class
    // directories, then the SCAN directories (which are then not on the
    // JVM's class path): FILE holds "R" lines, each starting a round, with
    // "C DIR" lines (class directories) and "T NAME" lines (tests) after
    // it. Each round's events are between {"e":"round","n":I} and
    // {"e":"round-end","n":I,"duration":S}. A round that used
    // --round-cpu-ms=N milliseconds of the JVM's CPU time (all its threads:
    // a load on the machine does not count, as with a JVM of its own), or
    // ran --round-wall-ms=N milliseconds, ends the JVM
    // ({"e":"round-timeout"}); a
    // round that leaves the JVM other than it found it (a thread still
    // running, system properties, the default locale or time zone, the
    // standard streams, the default uncaught-exception handler changed)
    // ends it after its round-end ({"e":"stop","message":WHY}), so that
    // each round starts from the state the first one did.

    static volatile int current = -1;
    // The round's start: wall time and the JVM's CPU time, in nanoseconds;
    // inRound is false between rounds.
    static volatile long wall0, cpu0;
    static volatile boolean inRound;

    static void runRounds(Channel ch, Launcher launcher, String file, long cpuMillis, long wallMillis, List<String> scan) throws Exception {
        List<List<String>> dirs = new ArrayList<>(), tests = new ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
            if (line.equals("R")) {
                dirs.add(new ArrayList<>());
                tests.add(new ArrayList<>());
            } else if (line.startsWith("C ") && !dirs.isEmpty()) {
                dirs.get(dirs.size() - 1).add(line.substring(2));
            } else if (line.startsWith("T ") && !tests.isEmpty()) {
                tests.get(tests.size() - 1).add(line.substring(2));
            }
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (cpuMillis > 0 || wallMillis > 0) {
            long cpuMax = cpuMillis > 0 ? cpuMillis * 1_000_000L : Long.MAX_VALUE;
            long wallMax = wallMillis > 0 ? wallMillis * 1_000_000L : Long.MAX_VALUE;
            Thread dog = new Thread(() -> {
                while (true) {
                    if (inRound && (System.nanoTime() - wall0 > wallMax || os.getProcessCpuTime() - cpu0 > cpuMax)) {
                        ch.emit("e", "round-timeout", "n", new Raw(Integer.toString(current)));
                        Runtime.getRuntime().halt(0);
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "adaptbench-round-watchdog");
            dog.setDaemon(true);
            dog.start();
        }
        ClassLoader parent = Thread.currentThread().getContextClassLoader();
        for (int i = 0; i < dirs.size(); i++) {
            List<java.net.URL> urls = new ArrayList<>();
            for (String d : dirs.get(i)) urls.add(Paths.get(d).toAbsolutePath().toUri().toURL());
            for (String d : scan) urls.add(Paths.get(d).toAbsolutePath().toUri().toURL());
            Snapshot before = new Snapshot();
            long t0 = System.nanoTime();
            current = i;
            ch.emit("e", "round", "n", new Raw(Integer.toString(i)));
            wall0 = t0;
            cpu0 = os.getProcessCpuTime();
            inRound = true;
            try (java.net.URLClassLoader loader = new java.net.URLClassLoader(urls.toArray(new java.net.URL[0]), parent)) {
                Thread.currentThread().setContextClassLoader(loader);
                discovered.clear();
                List<String> roundScan = new ArrayList<>(dirs.get(i));
                roundScan.addAll(scan);
                run(ch, launcher, roundScan, tests.get(i), false);
            } finally {
                Thread.currentThread().setContextClassLoader(parent);
            }
            inRound = false;
            double secs = (System.nanoTime() - t0) / 1e9;
            ch.emit("e", "round-end", "n", new Raw(Integer.toString(i)), "duration", new Raw(Double.toString(secs)));
            String changed = before.changed();
            if (changed != null && i + 1 < dirs.size()) {
                ch.emit("e", "stop", "message", changed);
                return;
            }
        }
    }

    // Snapshot is the JVM-wide state a round could leave for the next.
    static final class Snapshot {
        // The default time zone first: the JDK sets user.timezone when it
        // first looks it up.
        final java.util.TimeZone zone = java.util.TimeZone.getDefault();
        final java.util.Locale locale = java.util.Locale.getDefault();
        final Set<Thread> threads = new HashSet<>(Thread.getAllStackTraces().keySet());
        final java.util.Properties props = (java.util.Properties) System.getProperties().clone();
        final Object sysOut = System.out, sysErr = System.err, sysIn = System.in;
        final Thread.UncaughtExceptionHandler handler = Thread.getDefaultUncaughtExceptionHandler();

        String changed() {
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (!threads.contains(t) && t.isAlive()) return "a thread is still running: " + t.getName();
            }
            java.util.Properties now = System.getProperties();
            if (!props.equals(now)) {
                Set<Object> keys = new java.util.TreeSet<>((x, y) -> String.valueOf(x).compareTo(String.valueOf(y)));
                keys.addAll(props.keySet());
                keys.addAll(now.keySet());
                for (Object k : keys) {
                    if (!java.util.Objects.equals(props.get(k), now.get(k))) return "system property " + k + " changed";
                }
                return "system properties changed";
            }
            if (!locale.equals(java.util.Locale.getDefault())) return "the default locale changed";
            if (!zone.equals(java.util.TimeZone.getDefault())) return "the default time zone changed";
            if (sysOut != System.out || sysErr != System.err || sysIn != System.in) return "a standard stream changed";
            if (handler != Thread.getDefaultUncaughtExceptionHandler()) return "the default uncaught-exception handler changed";
            return null;
        }
    }

    // selects reports whether the name n selects the test named e.
    static boolean selects(String n, String e) {
        if (e.equals(n) || e.startsWith(n + "[")) return true;
        if (n.startsWith("[")) return false;
        if (n.indexOf('#') < 0) return e.startsWith(n + "#") || e.startsWith(n + "$");
        return n.indexOf('(') < 0 && e.startsWith(n + "(");
    }

    // discovered maps Class#method to the unique IDs of what it names.
    static final Map<String, List<UniqueId>> discovered = new HashMap<>();

    // select adds the selectors of the test name n (see "names"), emitting
    // a missing event when it cannot select anything. It returns true
    // when whether n selects a test is known only after the tests ran.
    static boolean select(Channel ch, Launcher launcher, String n, List<DiscoverySelector> selectors) {
        if (n.startsWith("[")) {
            UniqueId u = decode(n);
            if (u == null) {
                ch.emit("e", "missing", "test", n);
                return false;
            }
            selectors.add(DiscoverySelectors.selectUniqueId(u));
            return true;
        }
        int hash = n.indexOf('#');
        String cls = hash < 0 ? n : n.substring(0, hash);
        Class<?> c;
        try {
            c = Class.forName(cls, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            ch.emit("e", "missing", "test", n);
            return false;
        }
        if (hash < 0) {
            selectors.add(DiscoverySelectors.selectClass(c));
            return true;
        }
        // method[(params)] then [index]...
        String m = n.substring(hash + 1);
        List<String> idx = new ArrayList<>();
        java.util.regex.Matcher im = java.util.regex.Pattern.compile("\\[([0-9]+)\\]$").matcher(m);
        while (im.find()) {
            idx.add(0, im.group(1));
            m = m.substring(0, im.start());
            im = java.util.regex.Pattern.compile("\\[([0-9]+)\\]$").matcher(m);
        }
        String params = null;
        int paren = m.indexOf('(');
        if (paren >= 0 && m.endsWith(")")) {
            params = m.substring(paren + 1, m.length() - 1);
            m = m.substring(0, paren);
        }
        List<DiscoverySelector> methods = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            Method[] declared;
            try {
                declared = k.getDeclaredMethods();
            } catch (LinkageError e) {
                break;
            }
            for (Method meth : declared) {
                if (!meth.getName().equals(m)) continue;
                if (params != null && !paramList(meth).equals(params)) continue;
                methods.add(DiscoverySelectors.selectMethod(c, meth));
            }
        }
        if (methods.isEmpty()) {
            ch.emit("e", "missing", "test", n);
            return false;
        }
        if (idx.isEmpty()) {
            selectors.addAll(methods);
            return true;
        }
        // An invocation or a dynamic test: below the method's unique ID,
        // found once per method.
        String base = n.substring(0, n.length() - idx.stream().mapToInt(s -> s.length() + 2).sum());
        List<UniqueId> found = discovered.get(base);
        if (found == null) {
            found = new ArrayList<>();
            TestPlan p = launcher.discover(LauncherDiscoveryRequestBuilder.request().selectors(methods).build());
            for (TestIdentifier root : p.getRoots()) {
                for (TestIdentifier d : p.getDescendants(root)) {
                    if (base.equals(nameOf(p, d))) found.add(d.getUniqueIdObject());
                }
            }
            discovered.put(base, found);
        }
        boolean any = false;
        for (UniqueId u : found) {
            List<UniqueId.Segment> segs = u.getSegments();
            String type = segs.get(segs.size() - 1).getType();
            if (type.equals("test-template") && idx.size() == 1) {
                selectors.add(DiscoverySelectors.selectUniqueId(u.append("test-template-invocation", "#" + idx.get(0))));
                any = true;
            } else if (type.equals("test-factory")) {
                for (int i = 0; i + 1 < idx.size(); i++) u = u.append("dynamic-container", "#" + idx.get(i));
                String lastIdx = "#" + idx.get(idx.size() - 1);
                selectors.add(DiscoverySelectors.selectUniqueId(u.append("dynamic-test", lastIdx)));
                selectors.add(DiscoverySelectors.selectUniqueId(u.append("dynamic-container", lastIdx)));
                any = true;
            }
        }
        if (!any) {
            ch.emit("e", "missing", "test", n);
            return false;
        }
        return true;
    }

    // paramList is a method's parameter types as names carry them:
    // "int,java.lang.String".
    static String paramList(Method m) {
        StringBuilder b = new StringBuilder();
        for (Class<?> t : m.getParameterTypes()) {
            if (b.length() > 0) b.append(',');
            b.append(t.getTypeName());
        }
        return b.toString();
    }
}
