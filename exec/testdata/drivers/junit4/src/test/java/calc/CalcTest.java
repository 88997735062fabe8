package calc;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import org.junit.Ignore;
import org.junit.Test;

public class CalcTest {
    @Test
    public void testAdd() { assertEquals(5, Calc.add(2, 3)); }

    @Test
    public void testSub() { assertEquals(2, Calc.sub(5, 3)); }

    @Test
    public void testDivByZero() { Calc.div(1, 0); }

    @Ignore("not today")
    @Test
    public void testIgnored() {}

    @Test
    public void testAssumption() { assumeTrue("needs a database", false); }

    @Test(timeout = 200)
    public void testTooSlow() throws InterruptedException { Thread.sleep(60_000); }
}
