package dev.innet.rack.switchos;

import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import dev.innet.rack.CacheProgram;
import dev.innet.rack.RackPorts;
import dev.innet.wire.RackAddressing;
import java.math.BigInteger;
import java.util.List;

/**
 * Brings a freshly started switch into service: forwarding entries for every host of the rack and, for
 * FarReach, the clone session for snapshot reports. Run by the controller whenever it sees a new switch
 * generation (first start, or restart after a crash, which lost every table and register).
 */
public final class SwitchOs {
    private SwitchOs() {}

    public static void bringUp(SwitchControl control, CacheProgram program, List<Integer> hosts) {
        for (int host : hosts) {
            control.addEntry(new EntrySpec(ControlNames.IPV4_FORWARD,
                    List.of(Match.exact(RackAddressing.hostIp(host) & 0xffffffffL)), 0, ControlNames.SET_EGRESS_PORT,
                    List.of(BigInteger.valueOf(RackPorts.portOf(host)))));
        }
        if (program == CacheProgram.FARREACH) {
            control.cloneSessionSet(ControlNames.CPU_CLONE_SESSION, RackPorts.CPU_PORT);
        }
    }

    /**
     * Raises every sequence-number slot to at least {@code floor}: after a switch restart the counters
     * start at 0, and writes numbered below what servers already store would be ignored as stale
     * (docs/p4-programs.md, "After a switch (re)start").
     */
    public static void raiseSequenceCounters(SwitchControl control, long floor) {
        control.registerWrite(ControlNames.SEQ_COUNTER, 0, ControlNames.SEQ_SLOTS - 1, BigInteger.valueOf(floor));
    }
}
