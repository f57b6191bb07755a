package dev.innet.lake.wire;

/** A memcached binary-protocol message: a request to memcached or its response. */
public sealed interface McMessage permits McRequest, McResponse {
    McOpcode opcode();

    /** Copied from request to response by memcached; LaKe puts its tag here on the way to the host. */
    int opaque();

    long cas();
}
