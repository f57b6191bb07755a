package dev.innet.kv.cache;

import dev.innet.kv.KvOp;
import dev.innet.kv.KvStatus;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.util.OptionalLong;

/**
 * An admission's probe of the admitted key's server (SEQ_PROBE, the specs' probe message; FarReach.tla and
 * NetCache.tla with FillBySeen): the server answers with the seq of the record it holds, which is at least
 * its record when the key's lookup entry was installed, so it is a sound fill floor for the record. The probe
 * carries a fresh request id, and only the reply with that id is taken: a reply to an earlier admission's
 * probe of the key may predate this install (the specs' BugProbeAnyAdmission). Sending and matching only;
 * the admission decides when to retransmit. Not final: tests seed a matching bug by overriding
 * {@link #answers}.
 */
public class SeqProbe {
    private final CacheController controller;
    private final byte[] key;
    private UdpFrame frame;
    private long reqId;
    private OptionalLong answer = OptionalLong.empty();

    public SeqProbe(CacheController controller, byte[] key) {
        this.controller = controller;
        this.key = key;
    }

    /** Sends the probe to the key's server under a fresh request id. */
    public final void send() {
        reqId = controller.nextRequestId();
        InnetMessage m = new InnetMessage(KvOp.SEQ_PROBE, 0, 0, reqId, key, 0, new byte[0], new byte[0]);
        frame = controller.frameTo(controller.ring().ownerOf(key), m);
        controller.context().network().send(frame);
    }

    /** Sends the same probe again (it or its reply was lost: the specs' ProbeResend). */
    private void resend() {
        if (frame == null) {
            throw new IllegalStateException("a probe resent before it was sent");
        }
        controller.context().network().send(frame);
    }

    /** Whether the probe was sent and no reply to it has arrived yet (the specs' probing[k] /= 0). */
    public final boolean awaited() {
        return frame != null && answer.isEmpty();
    }

    /**
     * A control message reaching the admission: taken as the answer if the probe awaits one and {@code msg}
     * answers it (the specs' AdmitFloor); returns whether it was taken. Anything else, a duplicate of the
     * answer included, is not (the specs' DiscardProbeReply).
     */
    public final boolean offer(InnetMessage msg) {
        if (!awaited() || !answers(msg)) {
            return false;
        }
        answer = OptionalLong.of(msg.seq());
        return true;
    }

    /** The specs' ProbeResend: sends the probe again if it still awaits its answer; returns whether it did. */
    public final boolean resendIfAwaited() {
        if (!awaited()) {
            return false;
        }
        resend();
        return true;
    }

    /** Whether {@code msg} answers this probe: only the reply carrying its request id does. */
    public boolean answers(InnetMessage msg) {
        return frame != null && msg.op() == KvOp.SEQ_PROBE_REPLY && msg.status() == KvStatus.OK && msg.reqId() == reqId;
    }

    /** The server's seq, once a reply arrived. */
    public final OptionalLong answer() {
        return answer;
    }
}
