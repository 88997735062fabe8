// AdaptbenchJacocoLines prints the source lines a JaCoCo execution data
// file covers, one "package/dir/File.java:line" a line. Arguments: the
// .exec file, then the class directories to analyse. mutate compiles it
// once per process on the host against Debian's libjacoco-java.
import java.io.File;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.tools.ExecFileLoader;

public class AdaptbenchJacocoLines {
    public static void main(String[] args) throws Exception {
        ExecFileLoader loader = new ExecFileLoader();
        loader.load(new File(args[0]));
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
        for (int i = 1; i < args.length; i++) {
            analyzer.analyzeAll(new File(args[i]));
        }
        for (IClassCoverage c : builder.getClasses()) {
            if (c.getSourceFileName() == null || c.getFirstLine() < 0) {
                continue;
            }
            String src = c.getPackageName().isEmpty() ? c.getSourceFileName() : c.getPackageName() + "/" + c.getSourceFileName();
            for (int n = c.getFirstLine(); n <= c.getLastLine(); n++) {
                int s = c.getLine(n).getStatus();
                if (s == ICounter.FULLY_COVERED || s == ICounter.PARTLY_COVERED) {
                    System.out.println(src + ":" + n);
                }
            }
        }
    }
}
