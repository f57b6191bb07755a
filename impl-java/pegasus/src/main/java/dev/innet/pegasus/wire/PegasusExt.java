package dev.innet.pegasus.wire;

import java.nio.ByteBuffer;

/**
 * The 8-byte Pegasus extension of the innet header (extlen = 8; docs/pegasus.md "Wire format"):
 *
 * <pre>
 *  0..3  fwd     requests: servers (bitmap of indices) the detector forwards a write to (§6.4);
 *                virtual writes: the replicas to copy to (§6.3)
 *  4..5  load    replies: the replying server's load (§4.4 reverse telemetry)
 *  6     server  replies: the replying server's index + 1; 0 = no server vouches for the version
 *  7     pflags  bit 0 DETECTOR: the receiver checks its client table and forwards (§6.4);
 *                bit 1 COMPLETED_GIVEN (ADD_KEY, P-20); bit 2 CONTROLLER_READ (P-22)
 * </pre>
 */
public record PegasusExt(long fwd, int load, int server, int pflags) {
    public static final int BYTES = 8;
    public static final int FLAG_DETECTOR = 0x01;
    /** ADD_KEY: the switch takes ver_completed from the packet's version (a chain's tail, P-20). */
    public static final int FLAG_COMPLETED_GIVEN = 0x02;
    /**
     * A READ from the controller (issue 16's removal rewrite reads every server's copy) and the server's
     * answer to it: the switch passes the answer to the controller without Algorithm 2 (P-22).
     */
    public static final int FLAG_CONTROLLER_READ = 0x04;
    public static final PegasusExt NONE = new PegasusExt(0, 0, 0, 0);

    public PegasusExt {
        if (fwd < 0 || fwd > 0xffff_ffffL || load < 0 || load > 0xffff || server < 0 || server > 0xff || pflags < 0
                || pflags > 0xff) {
            throw new IllegalArgumentException("Pegasus extension field out of range: " + fwd + "/" + load + "/"
                    + server + "/" + pflags);
        }
    }

    /** A reply's extension: this server's index (0-based) and load. */
    public static PegasusExt reply(int serverIndex, int load) {
        return new PegasusExt(0, Math.min(load, 0xffff), serverIndex + 1, 0);
    }

    public boolean detector() {
        return (pflags & FLAG_DETECTOR) != 0;
    }

    /** The replying server's index, or -1 when no server vouches. */
    public int serverIndex() {
        return server - 1;
    }

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putInt((int) fwd).putShort((short) load).put((byte) server)
                .put((byte) pflags).array();
    }

    /** Decodes an innet message's extension; a Pegasus message has exactly 8 bytes of it. */
    public static PegasusExt decode(byte[] ext) throws BadExtension {
        if (ext.length != BYTES) {
            throw new BadExtension("Pegasus messages carry an 8-byte extension, got " + ext.length + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(ext);
        return new PegasusExt(b.getInt() & 0xffff_ffffL, b.getShort() & 0xffff, b.get() & 0xff, b.get() & 0xff);
    }

    /** A message on the Pegasus port whose extension is not Pegasus's (docs/pegasus.md "Wire format"). */
    public static final class BadExtension extends Exception {
        private static final long serialVersionUID = 1L;

        public BadExtension(String detail) {
            super("BAD_PEGASUS_EXTENSION: " + detail);
        }
    }
}
