package dev.innet.lake.trace;

import dev.innet.lake.LakeTraceEvents;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.MemcachedUdpCodec;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.simulated.Simulation;
import dev.innet.tracecheck.NdjsonTrace;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.TraceLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A live LaKe rack's memcached steps, which the real memcached does not record, read off the switch's record of
 * the datagrams it processed ({@code switchUdpIn}/{@code switchUdpOut}, p4sim --trace-udp-frames): the run with a
 * {@link LakeTraceEvents#HOST_START} for each memcached host at its start and a {@link LakeTraceEvents#HOST_REQUEST}
 * for each request memcached answered, placed right before the switch processed that answer, with what the
 * simulated memcached would have recorded (the request's tag, key and op from the frame the switch forwarded to
 * memcached under that tag; the status and, for a GET, the value from the answer; for a SET, the request's value).
 * Each inferred line carries {@code "inferred":true}.
 *
 * <p>Why there is the right place. Lake.tla's host steps (HostSet, HostGet) read and change only the host's items
 * and consume their request and make their reply; the switch's steps only the layers, fences and tags. So a host
 * step can be moved later past any switch step but the one that takes its reply, as long as the host steps keep
 * their order. Live memcached runs one worker thread ({@code -t 1}, MemcachedProcess) on one UDP socket: it answers
 * datagrams in the order they arrived, each before the next; the veth link to the switch keeps that order and
 * p4sim processes a port's frames in order. So the answers reach the switch in memcached's processing order, and
 * "right before the switch took the answer" is after the switch forwarded the request, after memcached's earlier
 * steps, and before anything that saw the answer.
 *
 * <p>What it cannot see: a request memcached applied whose answer never reached the switch (lost between memcached
 * and the switch: the nft loss nemesis, a full socket buffer). Its effect is then missing from the run, and a later
 * answer that shows it is rejected (a false rejection, never a false acceptance). A memcached restart empties it;
 * the caller refuses those runs (the plan records the restart). Traffic of hosts that are neither clients nor
 * memcached (the controller's health probes, a 12-byte key that lake.p4 relays under a tag without touching its
 * layers) is left out, switch step and all: skipping its tags changes no comparison of the run's own tags with
 * the fences (a fence is the newest tag issued, and every later tag is above it either way).
 */
public final class MemcachedStepsFromSwitch {
    /** Marks a line this class wrote, so a reader of the run can tell it from a recorded one. */
    public static final String INFERRED = "inferred";

    private record Forwarded(int host, McRequest request) { }

    private MemcachedStepsFromSwitch() {
    }

    /**
     * @param run        the merged run (NDJSON lines in time order, the switch's steps with their outputs after them)
     * @param memcached  the hosts that run memcached
     * @param clients    the client hosts; frames of any other host (the controller) are left out
     * @return the run with memcached's steps added and other hosts' traffic left out
     * @throws TraceFormatException a line that is not an event, or a datagram that is not memcached's, naming it
     */
    public static List<String> infer(List<String> run, Set<Integer> memcached, Set<Integer> clients) {
        HexFormat hex = HexFormat.of();
        List<TraceLine> lines = new ArrayList<>(run.size());
        for (int i = 0; i < run.size(); i++) {
            lines.add(NdjsonTrace.parse(i + 1, run.get(i)));
        }
        List<String> out = new ArrayList<>(run.size() + run.size() / 2);
        if (!lines.isEmpty()) {
            long start = lines.get(0).time();
            for (int h : memcached.stream().sorted().toList()) {
                out.add(TraceEvent.of(LakeTraceEvents.HOST_START).with(INFERRED, true).toJsonLine(start, h, 0));
            }
        }
        Map<Long, Forwarded> byTag = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            TraceLine line = lines.get(i);
            if (!line.event().equals(Simulation.SWITCH_UDP_IN_EVENT)) {
                out.add(run.get(i));
                continue;
            }
            int end = i + 1;
            while (end < lines.size() && lines.get(end).event().equals(Simulation.SWITCH_UDP_OUT_EVENT)) {
                end++;
            }
            int src = (int) line.number("src");
            int dst = (int) line.number("dst");
            boolean rackTraffic = (clients.contains(src) || memcached.contains(src))
                    && (clients.contains(dst) || memcached.contains(dst));
            if (rackTraffic) {
                if (memcached.contains(src) && datagram(line, hex).message() instanceof McResponse answer) {
                    Forwarded f = byTag.remove(Integer.toUnsignedLong(answer.opaque()));
                    if (f != null && f.host() == src) {
                        McRequest r = f.request();
                        out.add(TraceEvent.of(LakeTraceEvents.HOST_REQUEST).with(INFERRED, true)
                                .with("op", r.opcode().name().toLowerCase(Locale.ROOT))
                                .with("opaque", Integer.toUnsignedLong(r.opaque()))
                                .with("key", hex.formatHex(r.key().toArray()))
                                .with("value", hex.formatHex((r.opcode() == McOpcode.GET ? answer.value() : r.value()).toArray()))
                                .with("status", answer.status()).toJsonLine(line.time(), src, 0));
                    }
                }
                for (int o = i + 1; o < end; o++) {
                    TraceLine sent = lines.get(o);
                    int to = (int) sent.number("dst");
                    if (memcached.contains(to) && datagram(sent, hex).message() instanceof McRequest r) {
                        byTag.put(Integer.toUnsignedLong(r.opaque()), new Forwarded(to, r));
                    }
                }
                for (int o = i; o < end; o++) {
                    out.add(run.get(o));
                }
            }
            i = end - 1;
        }
        return out;
    }

    private static McDatagram datagram(TraceLine line, HexFormat hex) {
        try {
            return MemcachedUdpCodec.decode(hex.parseHex(line.string("payload")));
        } catch (McException | IllegalArgumentException e) {
            throw new TraceFormatException("line " + line.line() + ": not a memcached datagram: " + e.getMessage());
        }
    }
}
