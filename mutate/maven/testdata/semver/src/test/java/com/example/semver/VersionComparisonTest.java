package com.example.semver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VersionComparisonTest {
    // The precedence example of the semantic versioning specification.
    static final String[] ORDER = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
            "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1"};

    @TestFactory
    Stream<DynamicTest> precedence() {
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i + 1 < ORDER.length; i++) {
            String lo = ORDER[i];
            String hi = ORDER[i + 1];
            tests.add(dynamicTest(lo + " < " + hi,
                    () -> assertTrue(Version.parse(lo).compareTo(Version.parse(hi)) < 0)));
        }
        return tests.stream();
    }

    @TestFactory
    List<DynamicNode> equality() {
        return List.of(
                dynamicContainer("build metadata is ignored", Stream.of(
                        dynamicTest("precedence", () -> assertEquals(0,
                                Version.parse("1.0.0+a").compareTo(Version.parse("1.0.0+b")))),
                        dynamicTest("but not by equals", () -> assertTrue(
                                !Version.parse("1.0.0+a").equals(Version.parse("1.0.0+b")))))),
                dynamicTest("same text", () -> assertEquals(Version.parse("3.1.4"), Version.parse("3.1.4"))));
    }

    @ParameterizedTest
    @CsvSource({"1.0.0, 2.0.0, -1", "2.0.0, 2.1.0, -1", "2.1.1, 2.1.0, 1", "1.0.0-rc.1, 1.0.0-rc.1, 0",
        "1.0.0-1, 1.0.0-a, -1", "1.0.0-a.1, 1.0.0-a, 1"})
    void compare(String a, String b, int sign) {
        assertEquals(sign, Integer.signum(Version.parse(a).compareTo(Version.parse(b))));
    }
}
