package com.example.semver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParserErrorHandlingTest {
    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("1", 1),
                Arguments.of("1.", 2),
                Arguments.of("1.2", 3),
                Arguments.of("1.2.", 4),
                Arguments.of("a.2.3", 0),
                Arguments.of("01.2.3", 0),
                Arguments.of("1.2.3-", 6),
                Arguments.of("1.2.3-01", 6),
                Arguments.of("1.2.3+", 6),
                Arguments.of("1.2.3-beta..1", 11),
                Arguments.of("1.2.3 ", 5),
                Arguments.of("99999999999.0.0", 0));
    }

    @ParameterizedTest(name = "[{index}] {0} fails at {1}")
    @MethodSource("errors")
    void shouldCorrectlyHandleParseErrors(String input, int position) {
        ParseException e = assertThrows(ParseException.class, () -> Version.parse(input));
        assertEquals(position, e.position(), e.getMessage());
    }
}
