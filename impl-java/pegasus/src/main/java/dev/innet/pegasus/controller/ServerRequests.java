package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.wire.InnetMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests from the controller to servers that are resent until answered (every one of them is
 * idempotent: table reads and merges, version queries, reads, replications by version). Links to the
 * servers lose packets; a server that is down is asked again until it is back.
 */
final class ServerRequests {
    private record Outstanding(int host, InnetMessage message, long sentAt) {}

    private final PegasusController controller;
    private final Map<Long, Outstanding> outstanding = new LinkedHashMap<>();
    private final List<PegasusPacket> answers = new ArrayList<>();

    ServerRequests(PegasusController controller) {
        this.controller = controller;
    }

    /** Sends a message (its request id is assigned here) to server host {@code host}. */
    void send(int host, int op, int flags, byte[] key, long version, long fwd, byte[] value) {
        send(host, op, flags, key, version, fwd, value, 0);
    }

    /** As {@link #send(int, int, int, byte[], long, long, byte[])}, with the extension's pflags. */
    void send(int host, int op, int flags, byte[] key, long version, long fwd, byte[] value, int pflags) {
        long id = controller.nextRequestId();
        InnetMessage m = PegasusPacket.message(op, flags, 0, id, key, version,
                new dev.innet.pegasus.wire.PegasusExt(fwd, 0, 0, pflags), value);
        outstanding.put(id, new Outstanding(host, m, controller.now()));
        controller.sendToHost(host, m);
    }

    /** Takes the answer to one of our requests. */
    boolean onReply(PegasusPacket p) {
        Outstanding o = outstanding.get(p.message().reqId());
        if (o == null || p.message().op() != (o.message().op() | InnetMessage.REPLY_BIT)) {
            return false;
        }
        outstanding.remove(p.message().reqId());
        answers.add(p);
        return true;
    }

    /** Resends what has waited longer than the retry interval; true when nothing is outstanding. */
    boolean settled() {
        long now = controller.now();
        for (Map.Entry<Long, Outstanding> e : outstanding.entrySet()) {
            Outstanding o = e.getValue();
            if (now - o.sentAt() >= controller.retryNanos()) {
                controller.sendToHost(o.host(), o.message());
                e.setValue(new Outstanding(o.host(), o.message(), now));
            }
        }
        return outstanding.isEmpty();
    }

    /** The answers received since the last call. */
    List<PegasusPacket> drainAnswers() {
        List<PegasusPacket> out = new ArrayList<>(answers);
        answers.clear();
        return out;
    }
}
