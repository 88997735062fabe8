package com.example.semver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class VersionParsingTest {
    @ParameterizedTest
    @ValueSource(strings = {"0.0.0", "1.2.3", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7",
            "1.0.0-x.7.z.92", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85", "1.0.0-x-y-z.-"})
    void roundTrips(String text) {
        assertEquals(text, Version.parse(text).toString());
    }

    @ParameterizedTest
    @CsvSource({
        "1.2.3, 1, 2, 3",
        "0.10.0, 0, 10, 0",
        "7.0.19-rc.1, 7, 0, 19",
        "2.5.0+build.7, 2, 5, 0",
    })
    void fields(String text, int major, int minor, int patch) {
        Version v = Version.parse(text);
        assertEquals(major, v.major());
        assertEquals(minor, v.minor());
        assertEquals(patch, v.patch());
    }

    @Test
    void buildMetadata() {
        assertEquals("exp.sha.5114f85", Version.parse("1.0.0-beta+exp.sha.5114f85").build());
        assertEquals("", Version.parse("1.0.0").build());
    }

    @Test
    void preRelease() {
        assertTrue(Version.parse("1.0.0-rc.1").isPreRelease());
        assertFalse(Version.parse("1.0.0+rc.1").isPreRelease());
    }
}
