package dev.innet.pegasus.spec;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where each action of specs/pegasus/Pegasus.tla ({@code Next}) happens in the implementation: a rule
 * of p4/pegasus.p4 (its apply-block steps; the P-n scenarios of p4/tests/pegasus.stf pin them), a Java
 * class and method, or the environment (faults the harness injects). A test keeps it in step with the
 * spec: every action of {@code Next} is mapped, and every mapped name is an action of the spec.
 */
public final class SpecMapping {
    /** Spec action name -> where it is implemented. */
    public static final Map<String, String> ACTIONS = actions();

    private SpecMapping() {}

    private static Map<String, String> actions() {
        Map<String, String> m = new TreeMap<>();
        m.put("IssueWrite", "PegasusClient.put/delete; p4/pegasus.p4 step 5 (Algorithm 1 WRITE: ver_next stamped, detector by "
                + "request id with rep_factor - 1 replicas in fwd, or home; STF P-1, P-4, P-11)");
        m.put("RetryWrite", "PegasusClient.onTimer (same request id; the switch stamps a new version)");
        m.put("IssueRead", "PegasusClient.get; p4/pegasus.p4 step 5 (Algorithm 1 READ: least loaded of the next two rset "
                + "members, or home; STF P-2, P-8, P-13)");
        m.put("RetryRead", "PegasusClient.onTimer");
        m.put("ServerWrite", "PegasusServer.write (detector: ClientTable lookup, execute, record, forward REPLICATE to fwd) "
                + "and PegasusServer.replicate (a forwarded copy); apply only a higher version (PegasusServer.accepts)");
        m.put("ServerRead", "PegasusServer.onPacket READ");
        m.put("ServerVirtualWrite", "PegasusServer.virtualWrite");
        m.put("SwitchWriteReply", "p4/pegasus.p4 step 6 (Algorithm 2 and the removal rule on WRITE/DELETE/REPLICATE/"
                + "VIRTUAL_WRITE replies; STF P-5, P-6, P-12)");
        m.put("SwitchReadReply", "p4/pegasus.p4 step 6 (Algorithm 2 on READ_REPLY; STF P-7)");
        m.put("SwitchDropUnvouched", "p4/pegasus.p4 step 6 (server 0 above ver_completed: PEG_DROP_UNVOUCHED; STF P-9)");
        m.put("AddKey", "controller.AddKey (pause, drain, TableMigration home -> all, ADD_KEY packet-out; STF P-3)");
        m.put("MarkRemove", "controller.MarkRemove (pause, drain, TableMigration all -> home, MARK_REMOVE packet-out; "
                + "STF P-10); controller.ForgetRemoved after the switch's KEY_REMOVED");
        m.put("VirtualWrite", "controller.VirtualWrite (pause, drain, home in rset, VIRTUAL_WRITE to home)");
        m.put("RemovalRewrite", "controller.RemovalRewrite (issue 16: a removal still pending two periods after the mark; "
                + "pause, drain, READ of every server from the CPU port, flagged so that the answers pass without Algorithm 2 "
                + "(P-22), the newest copy as a WRITE/DELETE from the CPU port to home, stamped by p4/pegasus.p4 step 5 past "
                + "the pause: P-21; an unanswered attempt is repeated from the reads under a new request id; STF P-21, P-22)");
        m.put("ServerRewrite", "PegasusServer.write (the controller's rewrite is a client WRITE/DELETE at home, its detector; "
                + "applied because its version is higher)");
        m.put("SwitchRewriteReply", "p4/pegasus.p4 step 6 (the removal rule on home's reply: KEY_REMOVED to the CPU port; "
                + "STF P-12), controller.RemovalRewrite.onReply");
        m.put("Lose", "environment: loss of any message (sim LinkFaults)");
        m.put("SwitchCrash", "environment: a switch crash and restart with empty registers and tables (Rack.crashSwitch); "
                + "the controller keeps the replicated keys durably (PegasusController.replicatedKeys)");
        m.put("SwitchDownDrop", "p4/pegasus.p4 while the switch is down or closed: P-0 (switch_open = 0 drops client requests; "
                + "no routes to clients before the recovery installs them)");
        m.put("RecoverSwitch", "controller.RecoverSwitch (routes to servers and controller only, drain, MAX_VERSION and READ "
                + "of every formerly replicated key from every server, the newest copy as REPLICATE to home, TableMigration "
                + "all -> home, ver_next above every version, clients' routes, switch_open = 1); PegasusServer MAX_VERSION");
        return m;
    }
}
