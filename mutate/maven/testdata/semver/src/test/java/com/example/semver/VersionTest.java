package com.example.semver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class VersionTest {
    static Version base;

    @BeforeAll
    static void parseBase() {
        base = Version.parse("1.4.2-rc.1+b5");
    }

    @Test
    void negativeNumbers() {
        assertThrows(IllegalArgumentException.class, () -> new Version(-1, 0, 0, List.of(), ""));
    }

    @Test
    void nullInput() {
        assertThrows(ParseException.class, () -> Version.parse(null));
    }

    @RepeatedTest(4)
    void hashMatchesEquals(RepetitionInfo info) {
        String text = "1." + info.getCurrentRepetition() + ".0-rc";
        assertEquals(Version.parse(text).hashCode(), Version.parse(text).hashCode());
        assertEquals(Version.parse(text), Version.parse(text));
    }

    @Nested
    class Increments {
        @Test
        void major() { assertEquals("2.0.0", base.nextMajor().toString()); }

        @Test
        void minor() { assertEquals("1.5.0", base.nextMinor().toString()); }

        @Test
        void patchOfPreRelease() { assertEquals("1.4.2", base.nextPatch().toString()); }

        @Test
        void patch() { assertEquals("1.4.3", Version.parse("1.4.2").nextPatch().toString()); }
    }

    @Nested
    class Stability {
        @Test
        void stable() { assertTrue(Version.parse("1.0.0").isStable()); }

        @Test
        void initialDevelopment() { assertFalse(Version.parse("0.9.0").isStable()); }

        @Test
        void preRelease() { assertFalse(base.isStable()); }
    }
}
