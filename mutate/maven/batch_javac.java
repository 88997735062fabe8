// The batch compiler of package mutate (see build_maven.go): compiles many
// mutants in one JVM, each with its own javac command line, as
//
//     java -cp DIR AdaptbenchBatchJavac LIST
//
// LIST holds one mutant a line: its directory, then javac's arguments,
// separated by tabs. For each it runs the system Java compiler with those
// arguments (what the javac command runs, so its messages and exit status
// are the command's) and writes the messages to DIR/javac.out and then the
// exit status to DIR/javac.status. A mutant without a status file was not
// compiled. It runs only javac: annotation processing is off (-proc:none)
// and none of the compiled code is loaded.
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public final class AdaptbenchBatchJavac {
    public static void main(String[] args) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            System.err.println("no system Java compiler (a JRE, not a JDK?)");
            System.exit(2);
        }
        for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            Path dir = Paths.get(f[0]);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status;
            try {
                status = javac.run(null, out, out, Arrays.copyOfRange(f, 1, f.length));
            } catch (Throwable t) {
                // As the javac command reports a crash of the compiler.
                PrintStream p = new PrintStream(out, true, StandardCharsets.UTF_8);
                t.printStackTrace(p);
                p.flush();
                status = 4;
            }
            Files.write(dir.resolve("javac.out"), out.toByteArray());
            Files.write(dir.resolve("javac.status"), Integer.toString(status).getBytes(StandardCharsets.UTF_8));
        }
    }
}
