package dev.innet.lake.wire;

/** Response status codes of memcached's binary protocol that LaKe and its host use. */
public final class McStatus {
    public static final int OK = 0x0000;
    public static final int KEY_NOT_FOUND = 0x0001;
    public static final int KEY_EXISTS = 0x0002;
    public static final int VALUE_TOO_LARGE = 0x0003;
    public static final int INVALID_ARGUMENTS = 0x0004;
    public static final int ITEM_NOT_STORED = 0x0005;
    public static final int UNKNOWN_COMMAND = 0x0081;
    public static final int OUT_OF_MEMORY = 0x0082;

    private McStatus() { }
}
