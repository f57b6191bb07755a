package dev.innet.visibility.fs;

import dev.innet.visibility.VisApplication;
import dev.innet.visibility.datanode.LogEntry;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.RackAddressing;

/**
 * The second application (§II-A, Table I, §VI): a file-system namespace. A data node's log entry is a
 * create (empty data) or a whole-file write of a path, and its metadata is the path's {@link Inode}. The
 * data node of the path's slot decides existence from its own log: a create of a path it holds is
 * answered with the path's newest entry (EXISTS), a write of a path it does not hold is refused
 * (NOT_FOUND). docs/visibility.md, "The second application: a file-system namespace".
 */
public final class FsApplication implements VisApplication {
    public static final FsApplication INSTANCE = new FsApplication();

    private FsApplication() {}

    @Override
    public byte[] tailOf(LogEntry entry) {
        return Inode.tail(entry.key(), entry.value().length, RackAddressing.hostOfIp(entry.clientIp()), entry.reqId());
    }

    @Override
    public boolean validTail(byte[] tail) {
        return Inode.validTail(tail);
    }

    @Override
    public Admission admit(int flags, boolean holdsKey) {
        boolean create = (flags & VisOp.FLAG_CREATE) != 0;
        if (create) {
            return holdsKey ? Admission.EXISTING : Admission.APPEND;
        }
        return holdsKey ? Admission.APPEND : Admission.ABSENT;
    }
}
