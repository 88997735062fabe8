package com.example.shop;

/** Parsing and checking of product codes such as "AB-1234-7". */
public final class Codes {
    private Codes() {}

    /** Returns the check digit of the digits in s: a weighted sum mod 10. */
    public static int checkDigit(String s) {
        int sum = 0;
        int weight = 3;
        for (int i = s.length() - 1; i >= 0; i--) {
            char c = s.charAt(i);
            if (!Character.isDigit(c)) {
                continue;
            }
            sum += (c - '0') * weight;
            weight = 4 - weight;
        }
        return (10 - sum % 10) % 10;
    }

    /** Reports whether code is two letters, a dash, four digits, a dash and the check digit. */
    public static boolean valid(String code) {
        if (code == null) {
            return false;
        }
        String[] parts = code.split("-");
        if (parts.length != 3) {
            return false;
        }
        String prefix = parts[0];
        if (prefix.length() != 2 || !Character.isUpperCase(prefix.charAt(0)) || !Character.isUpperCase(prefix.charAt(1))) {
            return false;
        }
        if (parts[1].length() != 4 || parts[2].length() != 1) {
            return false;
        }
        try {
            int check = Integer.parseInt(parts[2]);
            return check == checkDigit(parts[1]);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Returns the numeric part of a code, or -1 when it has none. */
    public static int number(String code) {
        int dash = code.indexOf('-');
        int last = code.lastIndexOf('-');
        if (dash < 0 || last <= dash) {
            return -1;
        }
        String digits = code.substring(dash + 1, last);
        int n = 0;
        while (n < digits.length() && digits.charAt(n) == '0') {
            n++;
        }
        if (n == digits.length()) {
            return 0;
        }
        return Integer.parseInt(digits.substring(n));
    }

    /** Normalizes a code: trims it, upper-cases the prefix, pads the number to four digits. */
    public static String normalize(String code) {
        String t = code.trim();
        int dash = t.indexOf('-');
        if (dash < 0) {
            return t.toUpperCase();
        }
        String prefix = t.substring(0, dash).toUpperCase();
        String rest = t.substring(dash + 1);
        StringBuilder num = new StringBuilder(rest);
        while (num.length() < 4) {
            num.insert(0, '0');
        }
        return prefix + "-" + num;
    }
}
