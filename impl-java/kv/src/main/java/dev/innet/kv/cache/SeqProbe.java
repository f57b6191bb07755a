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
 * the admission decides when to retransmit.
 */
public final class SeqProbe {
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
    public void send() {
        reqId = controller.nextRequestId();
        InnetMessage m = new InnetMessage(KvOp.SEQ_PROBE, 0, 0, reqId, key, 0, new byte[0], new byte[0]);
        frame = controller.frameTo(controller.ring().ownerOf(key), m);
        controller.context().network().send(frame);
    }

    /** Sends the same probe again (it or its reply was lost: the specs' ProbeResend). */
    public void resend() {
        if (frame == null) {
            throw new IllegalStateException("a probe resent before it was sent");
        }
        controller.context().network().send(frame);
    }

    /** Whether {@code msg} answers this probe: only the reply carrying its request id does. */
    public boolean answers(InnetMessage msg) {
        return frame != null && msg.op() == KvOp.SEQ_PROBE_REPLY && msg.status() == KvStatus.OK && msg.reqId() == reqId;
    }

    /** Takes {@code msg}'s seq as the answer if it is the first reply to this probe; a duplicate changes nothing. */
    public void take(InnetMessage msg) {
        if (answer.isEmpty()) {
            answer = OptionalLong.of(msg.seq());
        }
    }

    /** The server's seq, once a reply arrived. */
    public OptionalLong answer() {
        return answer;
    }
}
