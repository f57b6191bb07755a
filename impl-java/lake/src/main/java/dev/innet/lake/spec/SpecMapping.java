package dev.innet.lake.spec;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where each action of specs/lake/Lake.tla ({@code Next}) happens in the implementation: the rule of
 * docs/lake.md (LK-n) running in p4/lake.p4, a Java class and method, the environment (faults the
 * harness injects), or "not implemented" for an action only a buggy variant enables. A test keeps it
 * in step with the spec: every action of {@code Next} is mapped, and every mapped name is an action.
 */
public final class SpecMapping {
    /** Spec action name -> where it is implemented. */
    public static final Map<String, String> ACTIONS = actions();

    private SpecMapping() {}

    private static Map<String, String> actions() {
        Map<String, String> m = new TreeMap<>();
        m.put("ClientSet", "LakeClient.put, then p4/lake.p4 LK-4 (tagged, key and value remembered, forwarded; layers unchanged)");
        m.put("ClientGetHit", "LakeClient.get, then p4/lake.p4 LK-3 (answered from the first layer, else the second)");
        m.put("ClientGetMiss", "LakeClient.get, then p4/lake.p4 LK-2 (tagged, key remembered, forwarded)");
        m.put("ClientGiveUp", "LakeClient.onTimer (GET attempts exhausted, or a SET/DELETE's only attempt: the operation ends unknown)");
        m.put("HostSet", "memcached: MemcachedBackend.handle SET (simulated), or the real memcached");
        m.put("HostGet", "memcached: MemcachedBackend.handle GET (simulated), or the real memcached");
        m.put("HostWriteBack", "not implemented: enabled only in the BugWriteBack variant; LaKe writes through");
        m.put("LakeReply", "p4/lake.p4 LK-5/LK-6 (tag held: opaque restored, fill or invalidate, fences raised) and LK-7 (tag not held: dropped); LakeClient.onPacket completes the operation");
        m.put("Evict", "p4/lake.p4: a fill of another key into a shared direct-mapped slot (LK-5); LK-8 invalidation");
        m.put("Reset", "environment: a device reset (Rack.crashSwitch); LakeSwitchOs.beforeForwarding seeds tag_counter above every earlier tag");
        m.put("Lose", "environment: loss of any message (sim LinkFaults)");
        m.put("HostCrash", "environment: memcached killed (live racks: the kill and kill-server nemeses); it keeps items in memory only, so they are lost");
        m.put("DeadHostDrop", "environment: a request reaching a killed memcached (nothing listens on its port)");
        m.put("SwitchForget", "rack restart -> controller forget-server H -> MemcachedProcess.forgetBeforeRestart -> LakeSwitchOs.forgetServer (lut_tag cleared, then the slots of H's keys invalidated)");
        m.put("HostStart", "rack restart --process server-hH: memcached started again, empty (refused when the controller does not answer forget-server)");
        return m;
    }
}
