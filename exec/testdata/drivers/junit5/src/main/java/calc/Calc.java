package calc;

/** A tiny class under test. */
public final class Calc {
    public static int add(int a, int b) { return a + b; }

    /** Would return a-b: it has a bug the tests catch. */
    public static int sub(int a, int b) { return a + b; }

    public static int div(int a, int b) { return a / b; }
}
