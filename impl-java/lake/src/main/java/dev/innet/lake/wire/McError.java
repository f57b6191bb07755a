package dev.innet.lake.wire;

/**
 * Every way a memcached UDP datagram can fail to decode (docs/lake.md, "Wire format"), in the order
 * the decoder checks. The shared vectors in {@code conformance/vectors/memcached/} name these.
 */
public enum McError {
    /** Shorter than the 8-byte UDP frame header. */
    FRAME_TRUNCATED,
    /** The frame header's reserved field is not 0. */
    FRAME_RESERVED_NONZERO,
    /** Sequence number above 0: a later datagram of a multi-datagram message, which has no binary header. */
    CONTINUATION_DATAGRAM,
    /** Datagram count 0, or above 1 (reassembly of multi-datagram messages is not implemented). */
    MULTI_DATAGRAM,
    /** Shorter than frame header plus the 24-byte binary header. */
    HEADER_TRUNCATED,
    /** Magic neither 0x80 (request) nor 0x81 (response). */
    BAD_MAGIC,
    /** An opcode other than GET, SET and DELETE. */
    UNSUPPORTED_OPCODE,
    /** Data type not 0 (raw bytes, the only one memcached defines). */
    BAD_DATA_TYPE,
    /** A request's vbucket id is not 0 (memcached does not use it; the codec keeps no field for it). */
    NONZERO_VBUCKET,
    /** Key length plus extras length exceed the total body length. */
    BAD_LENGTHS,
    /** The datagram ends before the body the header announces. */
    BODY_TRUNCATED,
    /** Bytes after the body. */
    TRAILING_BYTES,
    /** Extras length wrong for the opcode (SET request 8, GET hit response 4, otherwise 0). */
    BAD_EXTRAS,
    /** A request key of length 0 or above 250 bytes, or a key in a response (GET, SET and DELETE replies carry none). */
    BAD_KEY,
    /** A value where the opcode has none (GET or DELETE request, successful SET or DELETE response). */
    UNEXPECTED_VALUE
}
