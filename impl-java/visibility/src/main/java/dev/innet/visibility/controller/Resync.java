package dev.innet.visibility.controller;

import dev.innet.sim.NodeContext;
import dev.innet.switchapi.SwitchControl;
import dev.innet.visibility.RackRoles;
import dev.innet.visibility.VisibilityTraceEvents;
import dev.innet.visibility.TimerActions;
import dev.innet.visibility.wire.SlotTimestamp;
import dev.innet.visibility.wire.VisExt;
import dev.innet.visibility.wire.VisFrames;
import dev.innet.visibility.wire.VisOp;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The coordinated recovery after a switch (re)start (§III-E 3; spec action SwResync): (1) the metadata
 * node drains its buffer and resynchronises its index with every data node; (2) every data node reports
 * its slots' last timestamps and the switch's MaxTs registers are loaded with them, so a write reply
 * sent before the crash cannot install metadata older than what the metadata node holds (our reading,
 * docs/specs/visibility.md); (3) vis_ready = 1 turns acceleration back on. Until then the switch drops
 * every message it would act on. Each step is re-sent after a timeout.
 */
public class Resync {
    private final NodeContext ctx;
    private final TimerActions timers;
    private final RackRoles roles;
    private final SwitchControl control;
    private final long round;
    private final Runnable onDone;
    private Step step = Step.METADATA_NODE;
    private long timer;
    private final Map<Integer, Long> received = new HashMap<>();
    private final Map<Integer, Long> expected = new HashMap<>();
    private final Map<Integer, Long> maxTs = new HashMap<>();

    private enum Step { METADATA_NODE, TIMESTAMPS, DONE }

    public Resync(NodeContext ctx, TimerActions timers, RackRoles roles, SwitchControl control, long round, Runnable onDone) {
        this.ctx = ctx;
        this.timers = timers;
        this.roles = roles;
        this.control = control;
        this.round = round;
        this.onDone = onDone;
    }

    public void start() {
        askMetadataNode();
    }

    private InnetMessage ask(int op) {
        return VisFrames.message(op, 0, 0, round, new byte[InnetMessage.KEY_BYTES], 0, new VisExt(0, 0), new byte[0]);
    }

    private void askMetadataNode() {
        ctx.network().send(VisFrames.serverToServer(ctx.hostNumber(), roles.metadataNode(), ask(VisOp.RESYNC)));
        timer = timers.after(roles.timeoutNanos() * 4, this::askMetadataNode);
    }

    private void askDataNodes() {
        for (int dn : roles.dataNodes()) {
            if (!expected.containsKey(dn) || !expected.get(dn).equals(received.getOrDefault(dn, 0L))) {
                expected.remove(dn);
                received.put(dn, 0L);
                ctx.network().send(VisFrames.serverToServer(ctx.hostNumber(), dn, ask(VisOp.TIMESTAMPS)));
            }
        }
        timer = timers.after(roles.timeoutNanos(), this::askDataNodes);
    }

    /** A reply from the metadata node or a data node; false if it is not for this round. */
    public boolean onReply(int fromIp, InnetMessage m) {
        if (m.reqId() != round) {
            return false;
        }
        int from = RackAddressing.hostOfIp(fromIp);
        if (step == Step.METADATA_NODE && m.op() == VisOp.RESYNC_DONE) {
            timers.cancel(timer);
            step = Step.TIMESTAMPS;
            askDataNodes();
        } else if (step == Step.TIMESTAMPS && m.op() == VisOp.TIMESTAMP_ENTRIES && received.containsKey(from)) {
            List<SlotTimestamp> list = SlotTimestamp.unpackOrNull(m.value());
            if (list == null) {
                return false;
            }
            for (SlotTimestamp s : list) {
                maxTs.merge(s.index(), s.ts(), Math::max);
            }
            received.merge(from, (long) list.size(), Long::sum);
        } else if (step == Step.TIMESTAMPS && m.op() == VisOp.TIMESTAMPS_END && received.containsKey(from)) {
            expected.put(from, m.seq());
        } else {
            return false;
        }
        if (step == Step.TIMESTAMPS && roles.dataNodes().stream()
                .allMatch(dn -> expected.containsKey(dn) && expected.get(dn).equals(received.get(dn)))) {
            timers.cancel(timer);
            step = Step.DONE;
            if (reloadsMaxTs()) {
                maxTs.forEach((slot, ts) -> {
                    control.registerWrite(SwitchNames.MAX_TS, slot, BigInteger.valueOf(ts));
                    ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.RESYNC_MAX_TS).with("slot", slot).with("ts", ts));
                });
            }
            control.registerWrite(SwitchNames.READY, 0, BigInteger.ONE);
            ctx.trace(VisibilityTraceEvents.of(VisibilityTraceEvents.RESYNC_DONE).with("round", round));
            ctx.log("switch resynchronised: MaxTs of " + maxTs.size() + " slots reloaded, acceleration on");
            onDone.run();
        }
        return true;
    }

    public void cancel() {
        timers.cancel(timer);
    }

    /** Whether step 2 writes MaxTs (the seeded bug of specs/visibility's ResyncNoMaxTs skips it). */
    protected boolean reloadsMaxTs() {
        return true;
    }
}
