package ver;

/** A tiny version comparator for the driver's tests. */
public final class Ver {
    private Ver() {}

    public static int major(String v) {
        return Integer.parseInt(v.split("\\.")[0]);
    }
}
