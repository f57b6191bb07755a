package dev.innet.wire;

/**
 * Every way a frame or an innet message can fail to decode, named exactly as in
 * {@code docs/wire-format.md} (§1 frame errors, §2.1 application errors) and in the shared
 * test vectors, so the Java and Go codecs report the same error for the same bytes.
 * Declaration order within each layer is the order in which decoders check.
 */
public enum WireError {
    // §1: Ethernet / IPv4 / UDP
    FRAME_TRUNCATED,
    NOT_IPV4,
    IP_OPTIONS,
    IP_FRAGMENT,
    BAD_IP_CHECKSUM,
    NOT_UDP,
    BAD_UDP_LENGTH,
    // §2.1: innet application header
    HEADER_TRUNCATED,
    BAD_MAGIC,
    BAD_EXTLEN,
    VALUE_TOO_LARGE,
    VALUE_TRUNCATED,
    NONZERO_PADDING,
    TRAILING_BYTES
}
