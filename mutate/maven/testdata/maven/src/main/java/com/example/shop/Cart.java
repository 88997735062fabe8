package com.example.shop;

import java.util.ArrayList;
import java.util.List;

/** A shopping cart of priced lines with a discount policy. */
public class Cart {
    private final List<String> names = new ArrayList<>();
    private final List<Integer> cents = new ArrayList<>();
    private final List<Integer> counts = new ArrayList<>();
    private int limit = 10;

    /** Sets the largest number of lines. */
    public void setLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        this.limit = limit;
    }

    /** Adds count items of name at price cents each; false when full. */
    public boolean add(String name, int price, int count) {
        if (name == null) {
            throw new IllegalArgumentException("no name");
        }
        if (count <= 0) {
            return false;
        }
        int at = names.indexOf(name);
        if (at >= 0) {
            counts.set(at, counts.get(at) + count);
            return true;
        }
        if (names.size() >= this.limit) {
            return false;
        }
        names.add(name);
        cents.add(price);
        counts.add(count);
        return true;
    }

    /** Removes up to count items of name and returns how many were removed. */
    public int remove(String name, int count) {
        int at = names.indexOf(name);
        if (at < 0) {
            return 0;
        }
        int have = counts.get(at);
        int taken = Math.min(have, count);
        if (taken == have) {
            names.remove(at);
            cents.remove(at);
            counts.remove(at);
        } else {
            counts.set(at, have - taken);
        }
        return taken;
    }

    /** Returns the total in cents before discount. */
    public long subtotal() {
        long sum = 0;
        for (int i = 0; i < names.size(); i++) {
            long line = (long) cents.get(i) * counts.get(i);
            sum += line;
        }
        return sum;
    }

    /** Returns the total after the discount: 10% from 100.00, 5% from 50.00. */
    public long total() {
        long sub = subtotal();
        int percent = 0;
        if (sub >= 10000) {
            percent = 10;
        } else if (sub >= 5000) {
            percent = 5;
        }
        long off = sub * percent / 100;
        return sub - off;
    }

    /** Returns the number of items. */
    public int items() {
        int n = 0;
        for (int c : counts) {
            n += c;
        }
        return n;
    }

    /** Lists the lines as "name x count", most expensive line first. */
    public String receipt() {
        StringBuilder sb = new StringBuilder();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> Long.compare((long) cents.get(b) * counts.get(b), (long) cents.get(a) * counts.get(a)));
        for (int i : order) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(names.get(i).trim()).append(" x ").append(counts.get(i));
        }
        return sb.toString();
    }
}
