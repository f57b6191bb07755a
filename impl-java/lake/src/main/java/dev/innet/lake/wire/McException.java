package dev.innet.lake.wire;

/** A datagram that is not a well-formed memcached message of the supported kinds. */
public final class McException extends Exception {
    private static final long serialVersionUID = 1L;
    private final McError error;

    public McException(McError error, String detail) {
        super(error + ": " + detail);
        this.error = error;
    }

    public McError error() {
        return error;
    }
}
