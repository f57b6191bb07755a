package dev.innet.visibility.spec;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where each action of specs/visibility/Visibility.tla ({@code Next}, which lists each message handler of {@code Deliver} itself)
 * happens in the implementation: a rule of p4/visibility.p4 (W1-W3, M1-M3, C1, R1-R2, Z1), a Java class
 * and method, or the environment (faults the harness injects). A test keeps it in step with the spec.
 */
public final class SpecMapping {
    /** Spec action name -> where it is implemented. */
    public static final Map<String, String> ACTIONS = actions();

    private SpecMapping() {}

    private static Map<String, String> actions() {
        Map<String, String> m = new TreeMap<>();
        // clients (client.VisibilityClient)
        m.put("InvokeWrite", "VisibilityClient.put/delete: WRITE to the slot's data node");
        m.put("InvokeRead", "VisibilityClient.get: READ to the metadata node");
        m.put("ClientCommit", "VisibilityClient.writeReplied (VISIBLE reply) and onPacket in phase WRITE_META");
        m.put("ClientFallback", "VisibilityClient.writeReplied (unmarked reply): META_UPDATE to the metadata node");
        m.put("ClientReadDone", "VisibilityClient.dataReplied (OK / NOT_FOUND)");
        m.put("ClientReadRetry", "VisibilityClient.dataReplied (KEY_MISMATCH): askMetadata again");
        m.put("ClientWriteTimeout", "VisibilityClient.onTimer: re-send WRITE or META_UPDATE (same request id)");
        m.put("ClientReadTimeout", "VisibilityClient.onTimer: re-send READ or DATA_READ");
        // data nodes (datanode.DataNode)
        m.put("DnWrite", "DataNode.write: append with the slot's next timestamp, or the earlier entry of a retried request id");
        m.put("DnRead", "DataNode.read: key validation (validates), KEY_MISMATCH on a colliding entry");
        // switch (p4/visibility.p4)
        m.put("SwWriteReply", "p4/visibility.p4 W1 (MaxTs raised), W2 (install, VISIBLE, clone to the metadata node), W3 (fallback)");
        m.put("SwMetaReply", "p4/visibility.p4 M1 (clear on ts == CurTs), M2 (held: META_HELD to the metadata node), M3 (pass)");
        m.put("SwClear", "p4/visibility.p4 C1 (clear on ts == CurTs, CLEAR_ACK)");
        m.put("SwRead", "p4/visibility.p4 R1 (answered from the entry) / R2 (to the metadata node)");
        // metadata node (metadata.MetadataNode)
        m.put("MdnUpdate", "MetadataNode.secondPhase (applied at once, reply through the switch)");
        m.put("MdnDefer", "MetadataNode.defer (DeferredBatch.add)");
        m.put("MdnBatch", "MetadataNode.applyBatch (sorted, combined; a CLEAR per update)");
        m.put("MdnClrAck", "MetadataNode.clearAcknowledged");
        m.put("MdnRead", "MetadataNode.read");
        m.put("MdnClearTimeout", "MetadataNode.sendClear's retry timer");
        m.put("SwStaleTimeout", "controller.StaleScan (entry valid with one CurTs over a scan period) -> DataNode.resendAsync");
        // failures
        m.put("Lose", "environment: lossy links (LinkFaults), switch crashes dropping frames");
        m.put("MdnCrash", "environment: Rack.crashHost on the metadata node; MetadataNode.onStart rebuilds from the data nodes");
        m.put("SwCrash", "environment: Rack.crashSwitch (a new, empty switch; p4 Z1 drops until ready)");
        m.put("SwResync", "controller.Resync (metadata node RESYNC, MaxTs reload, vis_ready = 1)");
        return m;
    }
}
