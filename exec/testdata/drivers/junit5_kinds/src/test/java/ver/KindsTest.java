package ver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

// Every kind of JUnit 5 test the driver names. Display names are hostile:
// the code under test chooses them.
class KindsTest {
    @Test
    @DisplayName("\u0000\"e\":\"end\"\n[3] #plain")
    void plain() { assertEquals(1, Ver.major("1.2.3")); }

    // Its reason once went into the results file as raw JSON.
    @Disabled("\u0000\"forged\",\"e\":\"hello\"")
    @Test
    void disabled() {}

    // The third value fails.
    @ParameterizedTest
    @ValueSource(strings = {"1.0.0", "1.2\n{\"e\":\"end\",\"test\":\"x\"}", "2.0.0", "1.9.9"})
    void values(String v) { assertEquals(1, Ver.major(v)); }

    static Stream<String> versions() { return Stream.of("3.0.0", "3.1.4"); }

    @ParameterizedTest
    @MethodSource("versions")
    void fromMethod(String v) { assertEquals(3, Ver.major(v)); }

    @ParameterizedTest
    @CsvSource({"1.0.0, 1", "10.0.1, 10"})
    void csv(String v, int want) { assertEquals(want, Ver.major(v)); }

    @RepeatedTest(3)
    void repeated() { assertEquals(2, Ver.major("2.0.0")); }

    // overloaded is both a test and a helper: its name carries the types.
    @Test
    void overloaded() { assertEquals(4, overloaded(4)); }

    int overloaded(int n) { return Ver.major(n + ".0.0"); }

    @TestFactory
    Stream<DynamicNode> dynamic() {
        return Stream.of(
                dynamicTest("\u2028one/[engine:x]%", () -> assertEquals(5, Ver.major("5.0.0"))),
                dynamicContainer("group", List.of(
                        dynamicTest("a", () -> assertEquals(6, Ver.major("6.0.0"))),
                        dynamicTest("b\uD800", () -> assertEquals(0, Ver.major("7.0.0"))))));
    }

    @Nested
    class Inner {
        @ParameterizedTest
        @ValueSource(ints = {8, 9})
        void nested(int n) { assertEquals(n, Ver.major(n + ".1")); }
    }
}
