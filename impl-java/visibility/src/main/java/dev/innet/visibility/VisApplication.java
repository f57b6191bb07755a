package dev.innet.visibility;

import dev.innet.visibility.datanode.LogEntry;

/**
 * The storage application on the visibility layer (§II-A, Table I): what metadata a data node's log
 * entry makes visible, and which writes a data node accepts. The layer itself (switch, metadata node,
 * switch OS, timestamps, recovery) is the same for every application. Metadata always starts with the
 * entry's log address (the switch OS's stale repair reads it from the switch, {@code StaleScan}); an
 * application adds a {@code tail} after it.
 */
public interface VisApplication {
    /** What a data node does with a WRITE, given whether its log already holds the key. */
    enum Admission {
        /** append it (a new entry, a new timestamp) */
        APPEND,
        /** append nothing; answer with the key's newest entry, flagged {@link dev.innet.visibility.wire.VisOp#FLAG_EXISTS} */
        EXISTING,
        /** append nothing; answer NOT_FOUND */
        ABSENT
    }

    /** The metadata tail of a log entry (after its address). */
    byte[] tailOf(LogEntry entry);

    /** Whether {@code tail} is one this application makes (the metadata node refuses others as malformed). */
    boolean validTail(byte[] tail);

    /** The data node's rule for a WRITE with {@code flags} on a key its log {@code holdsKey} or not. */
    Admission admit(int flags, boolean holdsKey);

    /** The first application, the log-structured key-value store: metadata = the log address; every write appends. */
    VisApplication KEY_VALUE = new VisApplication() {
        @Override
        public byte[] tailOf(LogEntry entry) {
            return new byte[0];
        }

        @Override
        public boolean validTail(byte[] tail) {
            return tail.length == 0;
        }

        @Override
        public Admission admit(int flags, boolean holdsKey) {
            return Admission.APPEND;
        }
    };
}
