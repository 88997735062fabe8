package com.example.ranges;

/** Parses "lo..hi" ranges of non-negative integers; its parse and clamp are overloaded. */
public final class Range {
    final int lo;
    final int hi;

    Range(int lo, int hi) {
        this.lo = lo;
        this.hi = hi;
    }

    static Range parse(String s) {
        return parse(s, 0);
    }

    static Range parse(String s, int from) {
        int dots = s.indexOf("..", from);
        if (dots < 0) {
            throw new IllegalArgumentException("no '..' in " + s);
        }
        int lo = parseInt(s, from, dots);
        int hi = parseInt(s, dots + 2, s.length());
        if (lo > hi) {
            throw new IllegalArgumentException("empty range " + s);
        }
        return new Range(lo, hi);
    }

    static int parseInt(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("not a digit at " + i);
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    int clamp(int v) {
        if (v < lo) {
            return lo;
        }
        if (v > hi) {
            return hi;
        }
        return v;
    }

    long clamp(long v) {
        long l = lo;
        long h = hi;
        if (v < l) {
            return l;
        }
        return Math.min(v, h);
    }

    int width() {
        int w = hi - lo;
        int n = w + 1;
        return n;
    }
}
