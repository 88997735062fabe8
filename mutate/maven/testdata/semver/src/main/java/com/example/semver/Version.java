package com.example.semver;

import java.util.ArrayList;
import java.util.List;

/** A semantic version: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]. */
public final class Version implements Comparable<Version> {
    private final int major;
    private final int minor;
    private final int patch;
    private final List<String> preRelease;
    private final String build;

    Version(int major, int minor, int patch, List<String> preRelease, String build) {
        if (major < 0 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("negative version number");
        }
        this.major = major;
        this.minor = minor;
        this.patch = patch;
        this.preRelease = new ArrayList<>(preRelease);
        this.build = build;
    }

    /** Parses text, throwing ParseException with the offending position. */
    public static Version parse(String text) {
        return new Parser(text).version();
    }

    public int major() { return major; }

    public int minor() { return minor; }

    public int patch() { return patch; }

    public String build() { return build; }

    public boolean isPreRelease() {
        return !preRelease.isEmpty();
    }

    public boolean isStable() {
        int first = major;
        boolean released = preRelease.isEmpty();
        return first > 0 && released;
    }

    public Version nextMajor() {
        int next = major + 1;
        List<String> none = new ArrayList<>();
        return new Version(next, 0, 0, none, "");
    }

    public Version nextMinor() {
        int next = minor + 1;
        List<String> none = new ArrayList<>();
        return new Version(major, next, 0, none, "");
    }

    public Version nextPatch() {
        if (isPreRelease()) {
            return new Version(major, minor, patch, new ArrayList<>(), "");
        }
        int next = patch + 1;
        return new Version(major, minor, next, new ArrayList<>(), "");
    }

    @Override
    public int compareTo(Version o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Integer.compare(patch, o.patch);
        }
        if (c == 0) {
            c = comparePreRelease(preRelease, o.preRelease);
        }
        return c;
    }

    // A version without pre-release fields has higher precedence; fields
    // compare numerically when both are numbers, else lexically; a longer
    // list wins when all shared fields are equal.
    static int comparePreRelease(List<String> a, List<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            int sa = a.size();
            int sb = b.size();
            return sa == sb ? 0 : sa == 0 ? 1 : -1;
        }
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            String x = a.get(i);
            String y = b.get(i);
            int c = compareField(x, y);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    static int compareField(String x, String y) {
        boolean nx = Chars.isNumeric(x);
        boolean ny = Chars.isNumeric(y);
        if (nx && ny) {
            long lx = Long.parseLong(x);
            long ly = Long.parseLong(y);
            return Long.compare(lx, ly);
        }
        if (nx != ny) {
            return nx ? -1 : 1;
        }
        return x.compareTo(y);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Version)) {
            return false;
        }
        Version v = (Version) o;
        return compareTo(v) == 0 && build.equals(v.build);
    }

    @Override
    public int hashCode() {
        return ((major * 31 + minor) * 31 + patch) * 31 + preRelease.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        b.append(major).append('.').append(minor).append('.').append(patch);
        if (!preRelease.isEmpty()) {
            b.append('-').append(String.join(".", preRelease));
        }
        if (!build.isEmpty()) {
            b.append('+').append(build);
        }
        return b.toString();
    }
}
