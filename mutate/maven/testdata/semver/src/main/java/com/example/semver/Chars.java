package com.example.semver;

/** Character classes of the grammar, built once per JVM. */
final class Chars {
    private static final boolean[] IDENT = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            IDENT[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            IDENT[c] = true;
            IDENT[Character.toUpperCase(c)] = true;
        }
        IDENT['-'] = true;
    }

    private Chars() {}

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isIdentifier(char c) {
        return c < 128 && IDENT[c];
    }

    static boolean isNumeric(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
