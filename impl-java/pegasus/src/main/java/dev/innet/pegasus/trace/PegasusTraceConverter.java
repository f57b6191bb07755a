package dev.innet.pegasus.trace;

import dev.innet.pegasus.PegasusTraceEvents;
import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.sim.simulated.Simulation;
import dev.innet.tracecheck.TraceFormatException;
import dev.innet.tracecheck.SwitchUdpSteps;
import dev.innet.tracecheck.TraceLine;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.WireException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32;

/**
 * Turns one single-rack Pegasus run's trace events into the event sequence specs/pegasus/PegasusTrace.tla
 * walks (docs/conformance.md, "Pegasus: trace validation"). The switch's steps come from the rack's record of
 * the Pegasus frames it processed ({@code switchUdpIn}) and sent in the same step ({@code switchUdpOut}); the
 * servers' and the controller's from {@link PegasusTraceEvents}:
 *
 * <ul>
 *   <li>a client's WRITE/DELETE the switch stamped and sent to a server: write (IssueWrite, or RetryWrite for a
 *       later attempt of the same request); a READ sent to a server: read; a request the switch dropped
 *       (closed, writes paused): no step, as a request lost before the switch;</li>
 *   <li>a server's WRITE/DELETE/REPLICATE/VIRTUAL_WRITE reply entering the switch: writeReply (passed on or
 *       dropped as unvouched; a KEY_REMOVED clone says the key left the directory); a READ_REPLY: readReply;</li>
 *   <li>ADD_KEY and MARK_REMOVE from the controller: addKey, markRemove; the controller's virtual write (its
 *       event, sent while the key's writes are paused and drained): virtualWrite;</li>
 *   <li>the servers' events: serverWrite, serverStale, serverRead, serverVW;</li>
 *   <li>issue 16's removal rewrite, one attempt at a time: the servers' answers to the controller's reads
 *       (rewriteRead: the server must store what it returned; no spec step, since Pegasus.tla's RemovalRewrite
 *       reads every store when the switch stamps) and those answers passing the switch (rewriteReadReply:
 *       they must leave the directory as it is); the controller's WRITE/DELETE stamped by the switch and sent
 *       home (rewrite: RemovalRewrite, its message built from the controller's pegRemovalRewrite event: the
 *       value of the copy it read as newest and exp, the version it read at home); home handling it
 *       (serverRewrite: ServerRewrite, or serverStale); its reply passing the switch (rewriteReply:
 *       SwitchRewriteReply).</li>
 * </ul>
 *
 * Every spec message is built whole (Pegasus.tla's WReq, RReq, VWReq, WRep, RRep). Values are write ids in the
 * order the switch first forwarded each write (a value's bytes name their write: workload values are unique;
 * a tombstone is the delete that wrote it, or 0); read ids likewise. A message consumed again later is
 * delivered with dup = TRUE (kept in net); a message no later event consumes is lost right after the step that
 * created it (the spec's Lose; harmless to every guard, since the spec may lose any message at any time).
 *
 * <p>Refused (unknown, never accepted): a host restart (incarnation above 0), a switch crash, a run without
 * the controller's start event, frames that are not Pegasus messages, unknown events, two writes of the
 * same value bytes, a removal rewrite stamped while a message of the key's previous attempt is still
 * delivered later (Pegasus.tla's RemovalRewrite waits until the previous one is answered or lost; the
 * controller's timeout cannot know which), and one stamped after the switch removed the key (the controller
 * checks the mark before it writes, not in the same step) (each error names the NDJSON line).
 */
public final class PegasusTraceConverter {

    /** A converted run. */
    public record Converted(List<Map<String, Object>> steps, int servers, Map<String, Integer> home,
            List<Integer> detectors, int writes, int reads, int retries, int dups, int losses, int adds, int removes,
            int virtualWrites, int rewrites) { }

    /** A set of TLA+ values, written as {@code {a, b}}. */
    public record TlaSet(Set<Integer> items) {
        @Override
        public String toString() {
            return items.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ", "{", "}"));
        }
    }

    /** One converted step with the spec messages it consumes and creates (by their TLA+ text). */
    private record Step(Map<String, Object> fields, String consumes, List<Map<String, Object>> creates) { }

    private final HexFormat hex = HexFormat.of();
    private final List<Step> steps = new ArrayList<>();
    private List<Integer> servers;
    /** the controller's host: its requests through the switch are removal rewrites, not a client's */
    private int controllerHost = -1;
    /** the controller's removal rewrite attempts not yet stamped: request id -> its pegRemovalRewrite event */
    private final Map<Long, TraceLine> rewritesSent = new HashMap<>();
    /** the RW message (Pegasus.tla's RWReq) of each stamped rewrite, by the version the switch stamped */
    private final Map<Long, Map<String, Object>> rewriteOfVersion = new HashMap<>();
    /** keys whose removal the switch has reported (KEY_REMOVED) since they were last added or marked */
    private final Set<String> removedKeys = new java.util.HashSet<>();
    private final Map<String, Integer> home = new TreeMap<>();
    /** (client host, reqId) of writes and reads -> op id */
    private final Map<String, Integer> writeIds = new HashMap<>();
    private final Map<String, Integer> readIds = new HashMap<>();
    private final List<Integer> detectors = new ArrayList<>();
    private final Map<Long, Integer> writeOfVersion = new HashMap<>();
    private final Map<String, Integer> writeOfValue = new HashMap<>();
    private final Set<Integer> deletes = new TreeSet<>();
    /** server host / key -> the write id whose value it stores (0: none) */
    private final Map<String, Integer> shadow = new HashMap<>();
    /** (replica host, key, version, reqId) -> value of a virtual write's copy */
    private final Map<String, Integer> vwCopies = new HashMap<>();
    /** (replica host, reqId, key, version) -> the write id of the REPLICATE it handled */
    private final Map<String, Integer> replicaWrites = new HashMap<>();
    /** (server host, client host, reqId, version) -> the value its READ_REPLY carries */
    private final Map<String, Integer> readReplyValues = new HashMap<>();
    /** (client host, reqId) -> the lines at which the switch saw that request */
    private final Map<String, List<Integer>> attempts = new HashMap<>();
    private int retries;
    private int adds;
    private int removes;
    private int virtualWrites;
    private int rewrites;

    public Converted convert(List<TraceLine> lines) {
        for (TraceLine line : lines) {
            if (line.incarnation() > 0) {
                throw new TraceFormatException("line " + line.line() + ": host " + line.host() + " restarted (incarnation "
                        + line.incarnation() + "); Pegasus.tla has no host crash");
            }
            if (line.event().equals(Simulation.SWITCH_CRASH_EVENT)) {
                throw new TraceFormatException("line " + line.line() + ": the switch crashed; Pegasus.tla has no switch "
                        + "crash or recovery");
            }
            if (line.event().equals(PegasusTraceEvents.CONTROLLER_START)) {
                if (servers != null) {
                    throw new TraceFormatException("line " + line.line() + ": a second " + line.event());
                }
                servers = new ArrayList<>();
                controllerHost = line.host();
                for (String h : line.string("servers").split(",")) {
                    try {
                        servers.add(Integer.parseInt(h));
                    } catch (NumberFormatException e) {
                        throw new TraceFormatException("line " + line.line() + ": bad server list " + line.string("servers"));
                    }
                }
            }
            if (line.event().equals(Simulation.SWITCH_UDP_IN_EVENT)) {
                InnetMessage m = message(line);
                if (!m.isReply() && (m.op() == PegasusOp.READ || m.op() == PegasusOp.WRITE || m.op() == PegasusOp.DELETE)) {
                    attempts.computeIfAbsent(line.number("src") + "/" + m.reqId() + "/" + (m.op() == PegasusOp.READ),
                            x -> new ArrayList<>()).add(line.line());
                }
            }
        }
        if (servers == null) {
            throw new TraceFormatException("no " + PegasusTraceEvents.CONTROLLER_START + " event: not a Pegasus rack run");
        }
        for (int i = 0; i < lines.size(); i++) {
            TraceLine line = lines.get(i);
            switch (line.event()) {
                case PegasusTraceEvents.CONTROLLER_START -> { }
                case Simulation.SWITCH_UDP_IN_EVENT -> {
                    List<TraceLine> out = SwitchUdpSteps.sentFor(lines, i);
                    i += out.size();
                    switchStep(line, out);
                }
                case Simulation.SWITCH_UDP_OUT_EVENT -> throw SwitchUdpSteps.sentWithoutInput(line);
                case PegasusTraceEvents.SERVER_WRITE -> serverWrite(line);
                case PegasusTraceEvents.SERVER_READ -> serverRead(line);
                case PegasusTraceEvents.SERVER_VIRTUAL_WRITE -> serverVirtualWrite(line);
                case PegasusTraceEvents.CONTROLLER_VIRTUAL_WRITE -> controllerVirtualWrite(line);
                case PegasusTraceEvents.CONTROLLER_REMOVAL_REWRITE -> rewritesSent.put(line.number("reqId"), line);
                default -> throw new TraceFormatException("line " + line.line() + ": unknown event " + line.event());
            }
        }
        if (home.isEmpty()) {
            throw new TraceFormatException("no client request reached the switch: nothing to validate");
        }
        return finish();
    }

    // ------------------------------------------------------------------ the switch

    private void switchStep(TraceLine in, List<TraceLine> out) {
        InnetMessage m = message(in);
        PegasusExt ext = ext(in, m);
        int src = (int) in.number("src");
        int dst = (int) in.number("dst");
        boolean fromServer = servers.contains(src);
        switch (m.op()) {
            case PegasusOp.WRITE, PegasusOp.DELETE, PegasusOp.READ -> {
                if (fromServer) {
                    throw new TraceFormatException("line " + in.line() + ": a client request from server host " + src);
                }
                if (src == controllerHost) {
                    // issue 16's RemovalRewrite: its reads pass to the server they name (no spec step: the
                    // spec reads every store when the write is stamped); its write is the spec step
                    if (m.op() != PegasusOp.READ) {
                        rewrite(in, m, out);
                    }
                } else {
                    clientRequest(in, src, dst, m, out);
                }
            }
            case PegasusOp.WRITE_REPLY, PegasusOp.DELETE_REPLY, PegasusOp.REPLICATE_REPLY,
                    PegasusOp.VIRTUAL_WRITE_REPLY -> {
                if (fromServer && dst == controllerHost && m.op() != PegasusOp.VIRTUAL_WRITE_REPLY) {
                    rewriteReply(in, m, ext, out);
                } else if (fromServer) {
                    writeReply(in, src, dst, m, ext, out);
                }
            }
            case PegasusOp.READ_REPLY -> {
                if (fromServer && dst == controllerHost) {
                    rewriteReadReply(in, m, ext);
                } else if (fromServer && !servers.contains(dst)) {
                    readReply(in, src, dst, m, ext, out);
                }
            }
            case PegasusOp.ADD_KEY -> {
                adds++;
                removedKeys.remove(keyOf(m));
                add(in, "addKey", null, List.of()).put("k", keyOf(m));
            }
            case PegasusOp.MARK_REMOVE -> {
                removes++;
                removedKeys.remove(keyOf(m));
                add(in, "markRemove", null, List.of()).put("k", keyOf(m));
            }
            default -> { } // copies, virtual writes, the controller's traffic, reports: no spec step at the switch
        }
    }

    private void clientRequest(TraceLine in, int client, int homeHost, InnetMessage m, List<TraceLine> out) {
        int homeIndex = servers.indexOf(homeHost);
        if (homeIndex < 0) {
            throw new TraceFormatException("line " + in.line() + ": a client request addressed to host " + homeHost
                    + ", which is no server");
        }
        String k = keyOf(m);
        Integer known = home.putIfAbsent(k, homeIndex + 1);
        if (known != null && known != homeIndex + 1) {
            throw new TraceFormatException("line " + in.line() + ": key " + k + " addressed to two homes");
        }
        TraceLine sent = null;
        for (TraceLine o : out) {
            if (servers.contains((int) o.number("dst")) && message(o).op() == m.op()) {
                if (sent != null) {
                    throw new TraceFormatException("line " + o.line() + ": the switch sent one client request twice");
                }
                sent = o;
            }
        }
        if (sent == null) {
            return; // dropped by the switch (closed, writes paused): as a request lost before the switch
        }
        InnetMessage fwd = message(sent);
        PegasusExt fext = ext(sent, fwd);
        int d = servers.indexOf((int) sent.number("dst")) + 1;
        String op = client + "/" + m.reqId();
        boolean read = m.op() == PegasusOp.READ;
        Map<String, Integer> ids = read ? readIds : writeIds;
        Integer id = ids.get(op);
        boolean retry = id != null;
        if (retry) {
            retries++;
        } else {
            id = ids.size() + 1;
            ids.put(op, id);
            if (!read) {
                detectors.add(detectorIndex(client, m.reqId(), servers.size()) + 1);
                if (m.op() == PegasusOp.DELETE) {
                    deletes.add(id);
                } else {
                    Integer clash = writeOfValue.put(hex.formatHex(m.value()), id);
                    if (clash != null) {
                        throw new TraceFormatException("line " + in.line() + ": writes " + clash + " and " + id
                                + " write the same value; values must name their write");
                    }
                }
            }
        }
        Map<String, Object> msg;
        if (read) {
            msg = msg("RREQ", "r", id, "key", k, "dst", d);
        } else {
            writeOfVersion.put(fwd.seq(), id);
            msg = msg("WREQ", "w", id, "val", id, "key", k, "ver", fwd.seq(), "dst", d, "det", fext.detector(),
                    "fwd", servers(fext.fwd()));
        }
        Map<String, Object> step = add(in, read ? "read" : "write", null, List.of(msg));
        step.put("retry", retry);
        step.put("m", msg);
    }

    private void writeReply(TraceLine in, int src, int dst, InnetMessage m, PegasusExt ext, List<TraceLine> out) {
        String k = keyOf(m);
        noteRemoval(k, out);
        int w;
        boolean toClient = m.op() == PegasusOp.WRITE_REPLY || m.op() == PegasusOp.DELETE_REPLY;
        if (toClient) {
            w = writeIds.getOrDefault(dst + "/" + m.reqId(), -1);
        } else if (m.op() == PegasusOp.REPLICATE_REPLY) {
            w = replicaWrites.getOrDefault(src + "/" + m.reqId() + "/" + k + "/" + m.seq(), -1);
        } else {
            w = 0;
        }
        SwitchOutputs outputs = switchOutputs(m.op(), out);
        Map<String, Object> msg = msg("WREP", "w", w, "key", k, "ver", m.seq(), "src", Math.max(0, ext.server()));
        Map<String, Object> step = add(in, "writeReply", msg, List.of());
        step.put("m", msg);
        step.put("passed", outputs.passed());
        step.put("lost", w != 0 && (!toClient || laterAttempt(dst, m.reqId(), false, in.line())));
        step.put("removed", outputs.removed());
    }

    private void readReply(TraceLine in, int src, int dst, InnetMessage m, PegasusExt ext, List<TraceLine> out) {
        int r = readIds.getOrDefault(dst + "/" + m.reqId(), -1);
        int val = readReplyValues.getOrDefault(src + "/" + dst + "/" + m.reqId() + "/" + m.seq(), -1);
        Map<String, Object> msg = msg("RREP", "r", r, "key", keyOf(m), "val", val, "ver", m.seq(), "src",
                Math.max(0, ext.server()));
        Map<String, Object> step = add(in, "readReply", msg, List.of());
        step.put("m", msg);
        step.put("lost", laterAttempt(dst, m.reqId(), true, in.line()));
        if (out.isEmpty()) {
            throw new TraceFormatException("line " + in.line() + ": the switch dropped a READ_REPLY, which "
                    + "Pegasus.tla's SwitchReadReply always passes on");
        }
    }

    // ------------------------------------------------------------------ issue 16's removal rewrite

    /** The switch stamped the controller's WRITE/DELETE of a marked key and sent it home: RemovalRewrite. */
    private void rewrite(TraceLine in, InnetMessage m, List<TraceLine> out) {
        TraceLine sent = rewritesSent.remove(m.reqId());
        if (sent == null) {
            throw new TraceFormatException("line " + in.line() + ": a WRITE/DELETE from the controller (request id "
                    + m.reqId() + ") with no " + PegasusTraceEvents.CONTROLLER_REMOVAL_REWRITE + " event before it");
        }
        TraceLine stamped = null;
        for (TraceLine o : out) {
            if (servers.contains((int) o.number("dst")) && message(o).op() == m.op()) {
                stamped = o;
            }
        }
        if (stamped == null) {
            return; // dropped by the switch: lost before it, no step
        }
        String k = keyOf(m);
        if (removedKeys.contains(k)) {
            // the controller saw the key marked, then a reply on its way ended the removal before the switch
            // stamped the write: the check and the stamp are not one step, as in the spec's RemovalRewrite
            throw new TraceFormatException("line " + in.line() + ": the controller's rewrite of key " + k
                    + " was stamped after the switch had removed the key; Pegasus.tla's RemovalRewrite needs it marked");
        }
        int h = servers.indexOf((int) stamped.number("dst")) + 1;
        if (h != servers.indexOf((int) sent.number("home")) + 1) {
            throw new TraceFormatException("line " + stamped.line() + ": the controller's rewrite of key " + k
                    + " went to host " + stamped.number("dst") + ", not to home (host " + sent.number("home") + ")");
        }
        home.putIfAbsent(k, h);
        long ver = message(stamped).seq();
        Map<String, Object> msg = msg("RW", "key", k, "ver", ver, "val", copyValue(sent), "exp", sent.number("exp"),
                "dst", h);
        rewriteOfVersion.put(ver, msg);
        rewrites++;
        add(in, "rewrite", null, List.of(msg)).put("m", msg);
    }

    /** Notes a KEY_REMOVED report among a step's outputs: the switch removed key {@code k} there. */
    private void noteRemoval(String k, List<TraceLine> out) {
        for (TraceLine o : out) {
            if (message(o).op() == PegasusOp.KEY_REMOVED) {
                removedKeys.add(k);
            }
        }
    }

    /**
     * The spec's value of the copy a rewrite writes: a value's bytes name their write; a tombstone is the
     * delete the server it was read from holds (0: no copy).
     */
    private int copyValue(TraceLine sent) {
        if (!sent.flag("deleted")) {
            return writeOfValue.getOrDefault(sent.string("value"), -1);
        }
        if (sent.number("fromVer") == 0) {
            return 0;
        }
        int held = shadow.getOrDefault(sent.number("from") + "/" + sent.string("key"), 0);
        return held == 0 || deletes.contains(held) ? held : -1;
    }

    /** Home handled a rewrite: ServerRewrite (applied or not; the spec's home answers only an applied one). */
    private void serverRewrite(TraceLine line, String outcome) {
        Map<String, Object> msg = rewriteOfVersion.get(line.number("ver"));
        if (msg == null) {
            throw new TraceFormatException("line " + line.line() + ": a write from the controller at version "
                    + line.number("ver") + ", which the switch did not stamp for a rewrite");
        }
        if (outcome.equals("stale")) {
            add(line, "serverStale", msg, List.of()).put("m", msg);
            return;
        }
        boolean applied = outcome.equals("applied");
        if (applied) {
            shadow.put(line.host() + "/" + msg.get("key"), ((Long) msg.get("val")).intValue());
        }
        Map<String, Object> reply = msg("RWREP", "key", msg.get("key"), "ver", line.number("replyVer"), "src",
                line.number("replySrc"));
        Map<String, Object> step = add(line, "serverRewrite", msg, applied ? List.of(reply) : List.of());
        step.put("m", msg);
        step.put("applied", applied);
        step.put("reply", reply);
    }

    /** Home's reply to a rewrite entered the switch: SwitchRewriteReply (the removal rule, or Algorithm 2). */
    private void rewriteReply(TraceLine in, InnetMessage m, PegasusExt ext, List<TraceLine> out) {
        noteRemoval(keyOf(m), out);
        SwitchOutputs outputs = switchOutputs(m.op(), out);
        Map<String, Object> msg = msg("RWREP", "key", keyOf(m), "ver", m.seq(), "src", Math.max(0, ext.server()));
        Map<String, Object> step = add(in, "rewriteReply", msg, List.of());
        step.put("m", msg);
        step.put("passed", outputs.passed());
        step.put("removed", outputs.removed());
    }

    /**
     * What the switch sent on for a server's reply: the reply itself ({@code passed}: not dropped by the removal
     * rule or as unvouched) and a KEY_REMOVED report ({@code removed}: the reply ended the key's removal).
     */
    private record SwitchOutputs(boolean passed, boolean removed) {
    }

    private SwitchOutputs switchOutputs(int replyOp, List<TraceLine> out) {
        boolean passed = false;
        boolean removed = false;
        for (TraceLine o : out) {
            int op = message(o).op();
            passed |= op == replyOp;
            removed |= op == PegasusOp.KEY_REMOVED;
        }
        return new SwitchOutputs(passed, removed);
    }

    /** A server answered the controller's read of its copy: no spec step; it must store what it returned. */
    private void rewriteRead(TraceLine line, int s, String k, long ver, int val) {
        Map<String, Object> step = add(line, "rewriteRead", null, List.of());
        step.put("s", s);
        step.put("key", k);
        step.put("val", val);
        step.put("ver", ver);
    }

    /**
     * The answer to a controller's read passed the switch: no spec step, so the directory must stay as it is.
     * Flagged CONTROLLER_READ, the switch passes it without Algorithm 2 (P-22); unflagged, Algorithm 2 must
     * change nothing.
     */
    private void rewriteReadReply(TraceLine in, InnetMessage m, PegasusExt ext) {
        Map<String, Object> step = add(in, "rewriteReadReply", null, List.of());
        step.put("key", keyOf(m));
        step.put("ver", m.seq());
        step.put("s", Math.max(0, ext.server()));
        step.put("flagged", (ext.pflags() & PegasusExt.FLAG_CONTROLLER_READ) != 0);
    }

    private boolean laterAttempt(int client, long reqId, boolean read, int line) {
        return attempts.getOrDefault(client + "/" + reqId + "/" + read, List.of()).stream().anyMatch(a -> a > line);
    }

    // ------------------------------------------------------------------ hosts

    private void serverWrite(TraceLine line) {
        int s = serverIndex(line) + 1;
        String k = line.string("key");
        long ver = line.number("ver");
        long reqId = line.number("reqId");
        int src = (int) line.number("src");
        int op = (int) line.number("op");
        String outcome = line.string("outcome");
        if (src == controllerHost && (op == PegasusOp.WRITE || op == PegasusOp.DELETE)) {
            serverRewrite(line, outcome);
            return;
        }
        int w;
        int val;
        Map<String, Object> msg;
        if (op == PegasusOp.REPLICATE) {
            Integer copy = vwCopies.get(line.host() + "/" + k + "/" + ver + "/" + reqId);
            w = copy != null ? 0 : writeOfVersion.getOrDefault(ver, -1);
            val = copy != null ? copy : w;
            replicaWrites.put(line.host() + "/" + reqId + "/" + k + "/" + ver, w);
            msg = msg("WREQ", "w", w, "val", val, "key", k, "ver", ver, "dst", s, "det", false, "fwd", new TlaSet(Set.of()));
        } else if (op == PegasusOp.WRITE || op == PegasusOp.DELETE) {
            w = writeIds.getOrDefault(src + "/" + reqId, -1);
            val = w;
            msg = msg("WREQ", "w", w, "val", val, "key", k, "ver", ver, "dst", s, "det", line.flag("det"), "fwd",
                    servers(line.number("fwd")));
        } else {
            throw new TraceFormatException("line " + line.line() + ": " + line.event() + " of op " + op);
        }
        if (outcome.equals("stale")) {
            add(line, "serverStale", msg, List.of()).put("m", msg);
            return;
        }
        boolean isDup = outcome.equals("duplicate");
        boolean applied = outcome.equals("applied");
        if (!isDup && !applied && !outcome.equals("superseded")) {
            throw new TraceFormatException("line " + line.line() + ": unknown outcome " + outcome);
        }
        if (applied) {
            shadow.put(line.host() + "/" + k, val);
        }
        Map<String, Object> reply = msg("WREP", "w", w, "key", k, "ver", line.number("replyVer"), "src",
                line.number("replySrc"));
        List<Map<String, Object>> creates = new ArrayList<>();
        creates.add(reply);
        if (line.flag("det") && !isDup && op != PegasusOp.REPLICATE) {
            for (int d : servers(line.number("fwd")).items()) {
                creates.add(msg("WREQ", "w", w, "val", val, "key", k, "ver", ver, "dst", d, "det", false, "fwd",
                        new TlaSet(Set.of())));
            }
        }
        Map<String, Object> step = add(line, "serverWrite", msg, creates);
        step.put("m", msg);
        step.put("isDup", isDup);
        step.put("applied", applied);
        step.put("reply", reply);
    }

    private void serverRead(TraceLine line) {
        int s = serverIndex(line) + 1;
        String k = line.string("key");
        int src = (int) line.number("src");
        long reqId = line.number("reqId");
        int r = readIds.getOrDefault(src + "/" + reqId, -1);
        long ver = line.number("replyVer");
        int val;
        if (!line.flag("found")) {
            val = 0;
        } else if (line.flag("deleted")) {
            int held = shadow.getOrDefault(line.host() + "/" + k, 0);
            val = held == 0 || deletes.contains(held) ? held : -1;
        } else {
            val = writeOfValue.getOrDefault(line.string("value"), -1);
        }
        if (src == controllerHost) {
            rewriteRead(line, s, k, ver, val);
            return;
        }
        readReplyValues.put(line.host() + "/" + src + "/" + reqId + "/" + ver, val);
        Map<String, Object> msg = msg("RREQ", "r", r, "key", k, "dst", s);
        Map<String, Object> step = add(line, "serverRead", msg,
                List.of(msg("RREP", "r", r, "key", k, "val", val, "ver", ver, "src", s)));
        step.put("m", msg);
        step.put("val", val);
        step.put("ver", ver);
    }

    private void serverVirtualWrite(TraceLine line) {
        int s = serverIndex(line) + 1;
        String k = line.string("key");
        long raised = line.number("raised");
        long reqId = line.number("reqId");
        TlaSet fwd = servers(line.number("fwd"));
        int val = shadow.getOrDefault(line.host() + "/" + k, 0);
        Map<String, Object> msg = msg("VW", "key", k, "ver", line.number("ver"), "dst", s, "fwd", fwd);
        List<Map<String, Object>> creates = new ArrayList<>();
        for (int d : fwd.items()) {
            vwCopies.put(servers.get(d - 1) + "/" + k + "/" + raised + "/" + reqId, val);
            creates.add(msg("WREQ", "w", 0, "val", val, "key", k, "ver", raised, "dst", d, "det", false, "fwd",
                    new TlaSet(Set.of())));
        }
        creates.add(msg("WREP", "w", 0, "key", k, "ver", raised, "src", s));
        Map<String, Object> step = add(line, "serverVW", msg, creates);
        step.put("m", msg);
        step.put("raised", raised);
    }

    private void controllerVirtualWrite(TraceLine line) {
        int h = servers.indexOf((int) line.number("home")) + 1;
        if (h == 0) {
            throw new TraceFormatException("line " + line.line() + ": virtual write to host " + line.number("home")
                    + ", which is no server");
        }
        virtualWrites++;
        Map<String, Object> msg = msg("VW", "key", line.string("key"), "ver", line.number("ver"), "dst", h, "fwd",
                servers(line.number("fwd")));
        add(line, "virtualWrite", null, List.of(msg)).put("m", msg);
    }

    // ------------------------------------------------------------------ dup and loss

    private Converted finish() {
        // each message's events in trace order: consumption (true) or creation (false)
        Map<String, List<int[]>> events = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            Step st = steps.get(i);
            if (st.consumes() != null) {
                events.computeIfAbsent(st.consumes(), x -> new ArrayList<>()).add(new int[] {i, 1});
            }
            for (Map<String, Object> c : st.creates()) {
                events.computeIfAbsent(text(c), x -> new ArrayList<>()).add(new int[] {i, 0});
            }
        }
        refuseRewriteOverAnEarlierAttempt(events);
        boolean[] dup = new boolean[steps.size()];
        Map<Integer, List<Map<String, Object>>> losesAfter = new HashMap<>();
        Map<String, Map<String, Object>> byText = new HashMap<>();
        steps.forEach(st -> st.creates().forEach(c -> byText.put(text(c), c)));
        for (Map.Entry<String, List<int[]>> e : events.entrySet()) {
            List<int[]> ev = e.getValue();
            for (int j = 0; j < ev.size(); j++) {
                boolean nextConsumes = j + 1 < ev.size() && ev.get(j + 1)[1] == 1;
                if (ev.get(j)[1] == 1) {
                    dup[ev.get(j)[0]] = nextConsumes;
                } else if (!nextConsumes) {
                    losesAfter.computeIfAbsent(ev.get(j)[0], x -> new ArrayList<>()).add(byText.get(e.getKey()));
                }
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        int dups = 0;
        int losses = 0;
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> f = steps.get(i).fields();
            if (steps.get(i).consumes() != null) {
                f.put("dup", dup[i]);
                if (dup[i]) {
                    dups++;
                } else if (f.get("e").equals("serverStale")) {
                    losses++;
                }
            }
            out.add(f);
            for (Map<String, Object> lost : losesAfter.getOrDefault(i, List.of())) {
                Map<String, Object> lose = new LinkedHashMap<>();
                lose.put("e", "lose");
                lose.put("src", f.get("src"));
                lose.put("m", lost);
                out.add(lose);
                losses++;
            }
        }
        return new Converted(List.copyOf(out), servers.size(), Map.copyOf(home), List.copyOf(detectors),
                writeIds.size(), readIds.size(), retries, dups, losses, adds, removes, virtualWrites, rewrites);
    }

    /**
     * Pegasus.tla's RemovalRewrite waits until no RW or RWREP of the key is in flight (the previous attempt
     * was answered or lost). The controller starts a new attempt when the previous one is not answered
     * within the retry time, and cannot know whether it was lost or is only late; a late one makes the run
     * no behaviour of the spec, for a reason that is the spec's abstraction, not a fault: refused (unknown).
     */
    private void refuseRewriteOverAnEarlierAttempt(Map<String, List<int[]>> events) {
        Map<String, Map<String, Object>> rewriteMessages = new HashMap<>();
        for (Step st : steps) {
            if (st.fields().get("m") instanceof Map<?, ?> m && (m.get("t").equals("RW") || m.get("t").equals("RWREP"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> msg = (Map<String, Object>) m;
                rewriteMessages.put(text(msg), msg);
            }
            st.creates().stream().filter(c -> c.get("t").equals("RW") || c.get("t").equals("RWREP"))
                    .forEach(c -> rewriteMessages.put(text(c), c));
        }
        for (int i = 0; i < steps.size(); i++) {
            Map<String, Object> f = steps.get(i).fields();
            if (!f.get("e").equals("rewrite")) {
                continue;
            }
            Object k = ((Map<?, ?>) f.get("m")).get("key");
            for (Map.Entry<String, Map<String, Object>> e : rewriteMessages.entrySet()) {
                List<int[]> ev = events.getOrDefault(e.getKey(), List.of());
                if (!e.getValue().get("key").equals(k)) {
                    continue;
                }
                for (int j = 1; j < ev.size(); j++) {
                    if (ev.get(j)[1] == 1 && ev.get(j - 1)[0] < i && ev.get(j)[0] > i) {
                        throw new TraceFormatException("line " + f.get("src") + ": a removal rewrite of key " + k
                                + " stamped while the previous attempt's " + e.getValue().get("t") + " was still on its way"
                                + " (delivered at line " + steps.get(ev.get(j)[0]).fields().get("src") + "); Pegasus.tla's"
                                + " RemovalRewrite waits until it is answered or lost");
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /**
     * The server index p4/pegasus.p4 picks as a write's detector: crc32 over the client's IPv4 address and the
     * request id, mod n (PegasusReplay.detectorIndex, there for the first request id).
     */
    static int detectorIndex(int clientHost, long reqId, int n) {
        CRC32 crc = new CRC32();
        crc.update(ByteBuffer.allocate(8).putInt(RackAddressing.hostIp(clientHost)).putInt((int) reqId).array());
        return (int) (crc.getValue() % n);
    }

    private int serverIndex(TraceLine line) {
        int i = servers.indexOf(line.host());
        if (i < 0) {
            throw new TraceFormatException("line " + line.line() + ": " + line.event() + " from host " + line.host()
                    + ", which is no server");
        }
        return i;
    }

    private TlaSet servers(long bitmap) {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < servers.size(); i++) {
            if ((bitmap & (1L << i)) != 0) {
                out.add(i + 1);
            }
        }
        return new TlaSet(out);
    }

    private InnetMessage message(TraceLine line) {
        try {
            return InnetMessage.decode(hex.parseHex(line.string("payload")));
        } catch (WireException | IllegalArgumentException e) {
            throw new TraceFormatException("line " + line.line() + ": not a Pegasus message: " + e.getMessage());
        }
    }

    private PegasusExt ext(TraceLine line, InnetMessage m) {
        try {
            return PegasusExt.decode(m.ext());
        } catch (PegasusExt.BadExtension e) {
            throw new TraceFormatException("line " + line.line() + ": not a Pegasus extension: " + e.getMessage());
        }
    }

    private static String keyOf(InnetMessage m) {
        return m.keyHex();
    }

    private static Map<String, Object> msg(String t, Object... fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", t);
        for (int i = 0; i < fields.length; i += 2) {
            Object v = fields[i + 1];
            m.put((String) fields[i], v instanceof Integer n ? (long) n : v);
        }
        return m;
    }

    private static String text(Map<String, Object> m) {
        return m.toString();
    }

    private Map<String, Object> add(TraceLine line, String event, Map<String, Object> consumes,
            List<Map<String, Object>> creates) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("e", event);
        step.put("src", (long) line.line());
        steps.add(new Step(step, consumes == null ? null : text(consumes), creates));
        return step;
    }
}
