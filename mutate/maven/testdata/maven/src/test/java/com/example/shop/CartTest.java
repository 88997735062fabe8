package com.example.shop;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class CartTest {
    @Test
    public void addAndTotal() {
        Cart c = new Cart();
        assertTrue(c.add("pen", 150, 2));
        assertTrue(c.add("book", 2000, 1));
        assertTrue(c.add("pen", 150, 1));
        assertEquals(4, c.items());
        assertEquals(2450, c.subtotal());
        assertEquals(2450, c.total());
    }

    @Test
    public void discounts() {
        Cart c = new Cart();
        c.add("lamp", 5000, 1);
        assertEquals(4750, c.total());
        c.add("desk", 5000, 1);
        assertEquals(9000, c.total());
        Cart d = new Cart();
        d.add("chair", 4999, 1);
        assertEquals(4999, d.total());
    }

    @Test
    public void limitAndZero() {
        Cart c = new Cart();
        c.setLimit(2);
        assertTrue(c.add("a", 1, 1));
        assertTrue(c.add("b", 1, 1));
        assertFalse(c.add("c", 1, 1));
        assertTrue(c.add("a", 1, 3));
        assertFalse(c.add("d", 1, 0));
        assertEquals(5, c.items());
    }

    @Test(expected = IllegalArgumentException.class)
    public void badLimit() {
        new Cart().setLimit(0);
    }

    @Test(expected = IllegalArgumentException.class)
    public void noName() {
        new Cart().add(null, 1, 1);
    }

    @Test
    public void remove() {
        Cart c = new Cart();
        c.add("pen", 100, 3);
        c.add("cup", 300, 1);
        assertEquals(2, c.remove("pen", 2));
        assertEquals(1, c.items() - 1);
        assertEquals(1, c.remove("pen", 5));
        assertEquals(0, c.remove("pen", 1));
        assertEquals(1, c.items());
        assertEquals(300, c.subtotal());
    }

    @Test
    public void receipt() {
        Cart c = new Cart();
        c.add(" pen ", 100, 3);
        c.add("cup", 350, 1);
        c.add("hat", 50, 1);
        assertEquals("cup x 1, pen x 3, hat x 1", c.receipt());
        assertEquals("", new Cart().receipt());
    }
}
