package dev.innet.farreach.spec;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where each action of specs/farreach/FarReach.tla ({@code Next}) happens in the implementation: the
 * P4 rule of docs/p4-programs.md §5 (FR-n) running in p4/farreach.p4, a Java class and method, the
 * environment (faults the harness injects), or "not implemented" for an action only a buggy variant
 * enables. Conformance work (replaying spec traces against the code)
 * starts from this table; a test keeps it in step with the spec: every action of {@code Next} is
 * mapped, and every mapped name is an action of the spec.
 */
public final class SpecMapping {
    /** Spec action name -> where it is implemented. */
    public static final Map<String, String> ACTIONS = actions();

    private SpecMapping() {}

    private static Map<String, String> actions() {
        Map<String, String> m = new TreeMap<>();
        // clients (dev.innet.farreach.FarReachClient, kv.client.KvClient) and the switch's answers to them
        m.put("ClientWriteHit", "p4/farreach.p4 FR-6/FR-7 (write absorbed by a valid cached record); FarReachClient.onSwitchAnsweredWrite preserves it");
        m.put("ClientWriteForward", "p4/farreach.p4 FR-8/FR-9/FR-10 (write forwarded as PUT_SEQ/DEL_SEQ); KvClient.put/delete");
        m.put("ClientRetry", "KvClient.onTimer (write retransmitted with the same request id); p4/farreach.p4's copy rule gives the copy its first seq (client_write_req_id, client_write_seq)");
        m.put("ClientWriteDropped", "p4/farreach.p4: a request reaching a restarted switch before the controller programs it (no routes) or while recovery's gate is closed (DROP_RECOVERING)");
        m.put("ClientReadHit", "p4/farreach.p4 FR-2/FR-3 (read answered from a latest record); KvClient.get");
        m.put("ClientReadForward", "p4/farreach.p4 FR-1/FR-4/FR-5 (GET, GET_FOR_CACHE or GET_EMBED to the server)");
        m.put("ClientReadDropped", "p4/farreach.p4: a request reaching a restarted switch before the controller programs it (no routes) or while recovery's gate is closed (DROP_RECOVERING)");
        m.put("ClientPutReply", "KvClient.onPacket (write reply)");
        m.put("ClientGetReply", "KvClient.onPacket (read reply)");
        m.put("ClientGiveUp", "KvClient.onTimer (attempts exhausted: the operation ends unknown)");
        m.put("ClientCrash", "environment: Simulation.crashAt on a client host (preserved records lost)");
        // servers (dev.innet.farreach.FarReachServer, kv.server.StorageServer)
        m.put("ServerPut", "StorageServer.write (numbered writes ordered by sequence number)");
        m.put("ServerGet", "StorageServer.readReply; FarReachServer.handleProtocolOp for GET_EMBED");
        m.put("ServerEvict", "FarReachServer.handleControl (EVICT_STORE, RECOVER_STORE)");
        m.put("ServerReportHot", "StorageServer.maybeReportHot");
        m.put("SwitchGetReply", "p4/farreach.p4 FR-11/FR-12/FR-18 (a server's GET_FOR_CACHE reply refreshes an outdated record at or above its fill floor and the seq seen; else it is seen, and outdates a latest record older than it)");
        // controller procedures (dev.innet.farreach.controller)
        m.put("AdmitInstall", "Admit.step stages INVALIDATE, INSTALL_RECORD, INSTALL_KEY (which sends SEQ_PROBE)");
        m.put("AdmitValidate", "Admit.step stage VALIDATE");
        m.put("DiscardHot", "kv.cache.CacheController.onHotReport (already cached, queued or queue full)");
        m.put("EvictStart", "Evict.step stages 0-1");
        m.put("EvictResend", "Evict.retransmit");
        m.put("EvictFinish", "Evict.onReply then Evict.step stage 2");
        m.put("EvictFinishNoAck", "not implemented: enabled only in the BugEvictBeforeAck variant; Evict waits for the acknowledgement");
        m.put("DiscardAck", "kv.cache.CacheController.onPacket (a late acknowledgement is dropped)");
        m.put("SnapStart", "Snap.step stage 0");
        m.put("SnapLoad", "Snap.step stage 1");
        m.put("SnapFinish", "Snap.step stages 2-3 (Snap.changedRecords takes the reported originals)");
        m.put("SwitchCrash", "environment: Rack.crashSwitch (every table and register lost)");
        m.put("Recover", "Recover.step run to completion (gate, counters raised to the incarnation's base, preserved records collected, replayed to servers, snapshot re-admitted outdated, preserved records released); seqs map by the base (docs/conformance.md)");
        m.put("Lose", "environment: loss of any message (sim LinkFaults)");
        // FillBySeen's fill floor: the admission's probe of the key's server
        m.put("ServerProbe", "FarReachServer.handleControl (SEQ_PROBE: the seq a read of the key would report)");
        m.put("AdmitFloor", "Admit.onReply then Admit.step (record_fill_floor := the probe's answer, FR-11)");
        m.put("DiscardProbeReply", "kv.cache.CacheController.onPacket (a probe reply with another admission's request id is dropped)");
        m.put("ProbeResend", "Admit.retransmit (the retry timer)");
        return m;
    }
}
