package dev.innet.wire;

/** A decode (or encode-precondition) failure carrying the wire-format error name. */
public final class WireException extends Exception {
    private static final long serialVersionUID = 1L;
    private final WireError error;

    public WireException(WireError error, String detail) {
        super(error + ": " + detail);
        this.error = error;
    }

    public WireError error() {
        return error;
    }
}
