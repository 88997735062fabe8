package calc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CalcTest {
    @Test
    void add() { assertEquals(5, Calc.add(2, 3)); }

    @Test
    void sub() { assertEquals(2, Calc.sub(5, 3)); }

    @Test
    void divByZero() { Calc.div(1, 0); }

    @Disabled("not today")
    @Test
    void disabled() {}

    @ParameterizedTest
    @CsvSource({"1, 2", "2, 5"})
    void twice(int a, int want) { assertEquals(want, Calc.add(a, a)); }

    @Nested
    class Inner {
        @Test
        void addZero() { assertEquals(7, Calc.add(7, 0)); }
    }
}
