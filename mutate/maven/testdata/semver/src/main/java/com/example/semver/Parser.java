package com.example.semver;

import java.util.ArrayList;
import java.util.List;

/** A recursive-descent parser of semantic versions. */
final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
        if (text == null) {
            throw new ParseException("null input", 0);
        }
        this.text = text;
    }

    Version version() {
        int major = number();
        expect('.');
        int minor = number();
        expect('.');
        int patch = number();
        List<String> pre = new ArrayList<>();
        if (peek() == '-') {
            pos++;
            pre = identifiers(true);
        }
        String build = "";
        if (peek() == '+') {
            pos++;
            build = String.join(".", identifiers(false));
        }
        if (pos != text.length()) {
            throw new ParseException("unexpected '" + text.charAt(pos) + "'", pos);
        }
        return new Version(major, minor, patch, pre, build);
    }

    int number() {
        int start = pos;
        while (pos < text.length() && Chars.isDigit(text.charAt(pos))) {
            pos++;
        }
        if (start == pos) {
            throw new ParseException("number expected", pos);
        }
        if (text.charAt(start) == '0' && pos - start > 1) {
            throw new ParseException("leading zero", start);
        }
        String digits = text.substring(start, pos);
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new ParseException("number too large", start);
        }
    }

    List<String> identifiers(boolean numericNoZero) {
        List<String> out = new ArrayList<>();
        do {
            int start = pos;
            while (pos < text.length() && Chars.isIdentifier(text.charAt(pos))) {
                pos++;
            }
            String id = text.substring(start, pos);
            if (id.isEmpty()) {
                throw new ParseException("identifier expected", start);
            }
            if (numericNoZero && Chars.isNumeric(id) && id.length() > 1 && id.charAt(0) == '0') {
                throw new ParseException("leading zero", start);
            }
            out.add(id);
        } while (accept('.'));
        return out;
    }

    char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    boolean accept(char c) {
        if (peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    void expect(char c) {
        if (!accept(c)) {
            String got = pos < text.length() ? "'" + text.charAt(pos) + "'" : "end of input";
            throw new ParseException("'" + c + "' expected, got " + got, pos);
        }
    }
}
