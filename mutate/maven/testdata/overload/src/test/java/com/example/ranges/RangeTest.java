package com.example.ranges;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RangeTest {
    @Test
    void parses() {
        Range r = Range.parse("3..10");
        assertEquals(3, r.lo);
        assertEquals(10, r.hi);
        Range q = Range.parse("x=1..2", 2);
        assertEquals(1, q.lo);
        assertEquals(2, q.hi);
        assertEquals(12, Range.parse("12..12").lo);
    }

    @Test
    void rejects() {
        assertThrows(IllegalArgumentException.class, () -> Range.parse("3"));
        assertThrows(IllegalArgumentException.class, () -> Range.parse("5..2"));
        assertThrows(IllegalArgumentException.class, () -> Range.parse("a..2"));
    }

    @Test
    void clampsInts() {
        Range r = Range.parse("3..10");
        assertEquals(3, r.clamp(1));
        assertEquals(10, r.clamp(11));
        assertEquals(5, r.clamp(5));
        assertEquals(3, r.clamp(3));
        assertEquals(10, r.clamp(10));
    }

    @Test
    void clampsLongs() {
        Range r = Range.parse("3..10");
        assertEquals(3L, r.clamp(1L));
        assertEquals(10L, r.clamp(11L));
        assertEquals(5L, r.clamp(5L));
        assertEquals(3L, r.clamp(3L));
        assertEquals(10L, r.clamp(10L));
    }

    @Test
    void width() {
        assertEquals(8, Range.parse("3..10").width());
        assertEquals(1, Range.parse("4..4").width());
    }
}
