// A JUnit 4 test class, run through the Vintage engine for the same reason
// as AdaptbenchWarmupJupiter.
import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AdaptbenchWarmupVintage {
    @Test
    public void passes() {
        assertEquals(4, 2 + 2);
    }

    @Test
    public void fails() {
        assertEquals(5, 2 + 2);
    }
}
