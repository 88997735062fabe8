// AdaptbenchJacocoLines prints the source lines each test covered, from the
// execution data exec.JUnit records with Coverage set: one JaCoCo session
// per test ("T" + unique ID + "\t" + name) and per container ("C" + unique
// ID). Arguments: the .exec file, then the class directories to analyse.
// Output, per test session in file order:
//
//     test NAME
//     package/dir/File.java:line
//     ...
//
// A test's lines are those of its session, of its containers' sessions
// (what a JVM running the test alone would run around it: @BeforeAll,
// @AfterAll, argument providers), and, for every class it ran code of,
// the lines of the class's static initializer that ran in any session: a
// JVM initializes a class once, in whatever first uses it, where a JVM
// running the test alone would have initialized it for the test.
//
// mutate compiles it once per process on the host against Debian's
// libjacoco-java. The data comes from the sandbox: a malformed file is an
// error (exit 1), never a partial answer.
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataReader;
import org.jacoco.core.data.ExecutionDataStore;

public class AdaptbenchJacocoLines {
    // Class files of the analysed directories, read once.
    static final List<byte[]> classes = new ArrayList<>();
    static final List<String> locations = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        Map<String, ExecutionDataStore> sessions = new LinkedHashMap<>();
        ExecutionDataStore[] cur = {null};
        try (InputStream in = new FileInputStream(args[0])) {
            ExecutionDataReader r = new ExecutionDataReader(in);
            r.setSessionInfoVisitor(info -> cur[0] = sessions.computeIfAbsent(info.getId(), k -> new ExecutionDataStore()));
            r.setExecutionDataVisitor(d -> {
                if (cur[0] == null) throw new IllegalStateException("execution data before any session");
                cur[0].visitClassExecution(d);
            });
            while (r.read()) {
            }
        }
        for (int i = 1; i < args.length; i++) load(new File(args[i]));

        // The static initializer lines every session ran, per class.
        ExecutionDataStore all = new ExecutionDataStore();
        for (ExecutionDataStore s : sessions.values()) merge(s, all);
        Map<String, TreeSet<Integer>> clinit = new TreeMap<>();
        for (IClassCoverage c : analyze(all)) {
            for (IMethodCoverage m : c.getMethods()) {
                if (!m.getName().equals("<clinit>")) continue;
                TreeSet<Integer> ls = covered(m);
                if (!ls.isEmpty()) clinit.put(c.getName(), ls);
            }
        }

        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, ExecutionDataStore> t : sessions.entrySet()) {
            String id = t.getKey();
            int tab = id.indexOf('\t');
            if (!id.startsWith("T") || tab < 0) continue;
            String uid = id.substring(1, tab), name = id.substring(tab + 1);
            if (name.isEmpty() || name.indexOf('\n') >= 0) throw new IllegalStateException("session of a test without a name: " + id);
            ExecutionDataStore mine = new ExecutionDataStore();
            merge(t.getValue(), mine);
            for (Map.Entry<String, ExecutionDataStore> c : sessions.entrySet()) {
                String cid = c.getKey();
                if (!cid.startsWith("C")) continue;
                String cuid = cid.substring(1);
                if (cuid.isEmpty() || uid.startsWith(cuid + "/")) merge(c.getValue(), mine);
            }
            out.append("test ").append(name).append('\n');
            for (IClassCoverage c : analyze(mine)) {
                if (c.getSourceFileName() == null || c.getFirstLine() < 0) continue;
                TreeSet<Integer> ls = covered(c);
                if (ls.isEmpty()) continue;
                if (clinit.containsKey(c.getName())) ls.addAll(clinit.get(c.getName()));
                String src = c.getPackageName().isEmpty() ? c.getSourceFileName() : c.getPackageName() + "/" + c.getSourceFileName();
                for (int n : ls) out.append(src).append(':').append(n).append('\n');
            }
        }
        System.out.print(out);
        System.out.flush();
    }

    // merge adds copies of src's data to dst (a store keeps and merges
    // into the objects it is given).
    static void merge(ExecutionDataStore src, ExecutionDataStore dst) {
        for (ExecutionData d : src.getContents()) {
            dst.visitClassExecution(new ExecutionData(d.getId(), d.getName(), d.getProbes().clone()));
        }
    }

    static void load(File f) throws IOException {
        if (f.isDirectory()) {
            File[] ents = f.listFiles();
            if (ents == null) return;
            java.util.Arrays.sort(ents);
            for (File e : ents) load(e);
        } else if (f.getName().endsWith(".class")) {
            classes.add(Files.readAllBytes(f.toPath()));
            locations.add(f.getPath());
        }
    }

    static java.util.Collection<IClassCoverage> analyze(ExecutionDataStore data) throws IOException {
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(data, builder);
        for (int i = 0; i < classes.size(); i++) {
            analyzer.analyzeClass(new ByteArrayInputStream(classes.get(i)), locations.get(i));
        }
        List<IClassCoverage> cs = new ArrayList<>(builder.getClasses());
        cs.sort((a, b) -> a.getName().compareTo(b.getName()));
        return cs;
    }

    static TreeSet<Integer> covered(org.jacoco.core.analysis.ISourceNode n) {
        TreeSet<Integer> ls = new TreeSet<>();
        if (n.getFirstLine() < 0) return ls;
        for (int i = n.getFirstLine(); i <= n.getLastLine(); i++) {
            int s = n.getLine(i).getStatus();
            if (s == ICounter.FULLY_COVERED || s == ICounter.PARTLY_COVERED) ls.add(i);
        }
        return ls;
    }
}
