package dev.innet.kv;

/** Reply status codes (docs/wire-format.md §2.2). */
public final class KvStatus {
    public static final int OK = 0;
    public static final int NOT_FOUND = 1;
    public static final int BAD_REQUEST = 2;
    public static final int BAD_OP = 3;
    public static final int WRONG_PARTITION = 4;
    public static final int VALUE_TOO_LARGE = 5;
    public static final int UNAVAILABLE = 6;

    private KvStatus() {}
}
