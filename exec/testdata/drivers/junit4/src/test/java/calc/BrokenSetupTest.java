package calc;

import org.junit.BeforeClass;
import org.junit.Test;

public class BrokenSetupTest {
    @BeforeClass
    public static void connect() { throw new IllegalStateException("no database"); }

    @Test
    public void testOne() {}
}
