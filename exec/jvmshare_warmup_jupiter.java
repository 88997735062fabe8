// A JUnit 5 test class that the reporter runs once, on the host, while
// the test JVM's class-data sharing archive is made (see jvmshare.go), so
// that the archive holds the classes a run of tests loads: passing,
// failing, erroring, skipped and parameterized tests. It is never run in a
// sandbox job.
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class AdaptbenchWarmupJupiter {
    @Test
    void passes() {
        assertEquals(4, 2 + 2);
    }

    @Test
    void fails() {
        assertEquals(5, 2 + 2);
    }

    @Test
    void errs() {
        throw new IllegalStateException("warm-up");
    }

    @Disabled("warm-up")
    @Test
    void skipped() {
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void parameterized(int x) {
        assertEquals(x, Math.abs(x));
    }
}
