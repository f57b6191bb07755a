package dev.innet.p4sim.bench;

import java.io.IOException;

/**
 * The switch a veth benchmark measures, running on the switch end of the pair with the prepared state:
 * p4sim in this process ({@link P4simUnderTest}) or bmv2's {@code simple_switch} as a process of its own
 * ({@link Bmv2UnderTest}). The generator and reply counter on the other end are the same for both.
 */
interface SwitchUnderTest extends AutoCloseable {
    /** What is measured, for the report ("p4sim on PACKET_MMAP rings", "bmv2 simple_switch (PATH)"). */
    String description();

    /** CPU time the switch has used so far, in nanoseconds: its pipeline thread, or its whole process. */
    long cpuNanos();

    /** Frames the kernel dropped because the switch's receive ring was full; -1 where it cannot be known. */
    long receiveDrops();

    @Override
    void close() throws IOException, InterruptedException;

    /** Starts a switch on interface {@code iface}, brought to {@code scenario}'s prepared state. */
    @FunctionalInterface
    interface Starter {
        SwitchUnderTest start(PreparedScenario scenario, String iface) throws Exception;
    }
}
