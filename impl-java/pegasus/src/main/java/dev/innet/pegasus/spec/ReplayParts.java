package dev.innet.pegasus.spec;

import dev.innet.kv.spec.WriteIds;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.KvResult;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecReplay.ReplayException;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** What both Pegasus replays (one rack, {@link PegasusReplay}; a chain, {@link PegasusChainReplay}) read the same way. */
final class ReplayParts {
    private static final String RKEYS = "MyIngress.rkeys";

    private ReplayParts() {}

    /** A client operation as the client library reports it: pending, or done (or failed) with what it returned. */
    static final class Op {
        final long key;
        String status = "pend";
        long version;
        long value;

        Op(long key) {
            this.key = key;
        }

        /** The client's callback: done with the reply's version (a read's value too), or failed. */
        void completed(KvResult r, boolean write) {
            if (r.outcome() == KvResult.Outcome.TIMED_OUT || r.outcome() == KvResult.Outcome.FAILED) {
                status = "failed: " + r.outcome();
                return;
            }
            status = "done";
            version = r.seq();
            value = write || r.outcome() != KvResult.Outcome.OK ? 0 : WriteIds.writeIdOf(r.value());
        }
    }

    /** A boolean parameter of the step's action (a missing one is false). */
    static boolean flag(SpecStep step, String name) {
        return Boolean.TRUE.equals(step.param(name));
    }

    /**
     * Home's answers to the controller's rewrite (ServerRewrite), put in flight as the spec's RWREP messages
     * ({@code rwrep} builds one from an answer). The spec's home answers only a rewrite it applied; home also
     * answers a copy it ran before, from its client table, which matches the spec only when the same RWREP is
     * still in flight (the spec's network is a set): otherwise the behaviour is not replayed from there.
     */
    static <R> void rewriteAnswers(List<byte[]> sent, boolean applied,
            java.util.function.Function<PegasusPacket, java.util.Map<String, Object>> rwrep,
            dev.innet.protocol.spec.ReplayNetwork<R> net, R route) {
        for (byte[] frame : sent) {
            PegasusPacket p = decode(frame);
            if (!p.message().isReply()) {
                throw new ReplayException("ServerRewrite: home sent op " + p.message().op() + ", no message of the spec");
            }
            java.util.Map<String, Object> reply = rwrep.apply(p);
            if (!applied && !net.messages().contains(reply)) {
                throw new dev.innet.protocol.spec.SpecReplay.NotReplayable("ServerRewrite: home answers a rewrite it "
                        + "did not apply (a copy of one it ran, answered from its client table with " + reply
                        + "); the spec's home answers only one it applies");
            }
            net.put(reply, route, frame);
        }
    }

    /** A frame of the replay as a Pegasus packet; anything else is a replay failure. */
    static PegasusPacket decode(byte[] frame) {
        PegasusPacket p = PegasusPacket.decodeOrDrop(frame, f -> true, () -> {});
        if (p == null) {
            throw new ReplayException("a frame in the replay is not a Pegasus packet");
        }
        return p;
    }

    /** What a switch emitted, for failure messages. */
    static String describe(List<ReplayTarget.Emitted> out) {
        if (out.isEmpty()) {
            return "nothing";
        }
        List<String> ports = new ArrayList<>();
        out.forEach(e -> ports.add("port " + e.port()));
        return out.size() + " frame(s) (" + String.join(", ", ports) + ")";
    }

    /** A bitmap of server indices as the spec's set of servers (index + 1). */
    static Set<Object> serverSet(long bitmap) {
        Set<Object> out = new LinkedHashSet<>();
        for (int i = 0; i < 64; i++) {
            if ((bitmap & (1L << i)) != 0) {
                out.add((long) i + 1);
            }
        }
        return out;
    }

    /** The key's directory slot (its rkeys entry), or -1. */
    static int slotOf(SwitchControl c, byte[] key) {
        BigInteger wanted = new BigInteger(1, key);
        for (EntrySpec e : c.readEntries(RKEYS)) {
            if (((Match.Exact) e.match().get(0)).value().equals(wanted)) {
                return e.args().get(0).intValue();
            }
        }
        return -1;
    }
}
