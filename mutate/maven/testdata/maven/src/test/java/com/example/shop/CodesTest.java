package com.example.shop;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class CodesTest {
    @Test
    public void checkDigit() {
        assertEquals(8, Codes.checkDigit("1234"));
        assertEquals(0, Codes.checkDigit("0000"));
        assertEquals(4, Codes.checkDigit("9-9"));
        assertEquals(7, Codes.checkDigit("0001"));
    }

    @Test
    public void valid() {
        assertTrue(Codes.valid("AB-1234-8"));
        assertFalse(Codes.valid("AB-1234-3"));
        assertFalse(Codes.valid("Ab-1234-8"));
        assertFalse(Codes.valid("AB-123-2"));
        assertFalse(Codes.valid("AB-1234"));
        assertFalse(Codes.valid("AB-1234-x"));
        assertFalse(Codes.valid(null));
    }

    @Test
    public void number() {
        assertEquals(1234, Codes.number("AB-1234-2"));
        assertEquals(7, Codes.number("AB-0007-1"));
        assertEquals(0, Codes.number("AB-0000-0"));
        assertEquals(-1, Codes.number("AB1234"));
        assertEquals(-1, Codes.number("AB-1234"));
    }

    @Test
    public void normalize() {
        assertEquals("AB-0012", Codes.normalize(" ab-12 "));
        assertEquals("CD-1234", Codes.normalize("cd-1234"));
        assertEquals("XY", Codes.normalize("xy"));
    }
}
