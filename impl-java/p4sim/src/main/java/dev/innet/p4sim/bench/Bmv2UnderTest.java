package dev.innet.p4sim.bench;

import dev.innet.p4sim.bmv2.Bmv2Process;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import java.nio.file.Path;
import java.util.List;

/**
 * bmv2's {@code simple_switch} as the switch under test ({@link Bmv2Process}: compiled, started on the
 * benchmark's interface, CLI connected), brought to the prepared state through its runtime CLI
 * ({@link PreparedScenario#copyTo}). Its CPU time is the whole process's, all threads (bmv2 has no single
 * pipeline thread to single out); its receive drops are not visible from outside (-1). Tested here against
 * the stand-in tools of ptf/tests/bmv2-standin, since bmv2 and p4c cannot be installed on this machine
 * (docs/p4sim.md, "Benchmark").
 */
final class Bmv2UnderTest implements SwitchUnderTest {
    private final Bmv2Process bmv2;
    private final Path simpleSwitch;

    private Bmv2UnderTest(Bmv2Process bmv2, Path simpleSwitch) {
        this.bmv2 = bmv2;
        this.simpleSwitch = simpleSwitch;
    }

    /** Starts bmv2 with the tools found, compiling into {@code workDir}; {@code includeDir}: p4/. */
    static SwitchUnderTest.Starter with(Bmv2Tools tools, Path includeDir, Path workDir) {
        return (scenario, iface) -> {
            Bmv2Process bmv2 = Bmv2Process.start(tools, scenario.program(), includeDir,
                    List.of(scenario.workloadPort() + "@" + iface), workDir);
            try {
                int cells = scenario.copyTo(bmv2.cli());
                System.err.printf("bench: bmv2 prepared through simple_switch_CLI: %d control calls, %d register cells%n",
                        scenario.calls().size(), cells);
                return new Bmv2UnderTest(bmv2, tools.simpleSwitch());
            } catch (RuntimeException e) {
                bmv2.close();
                throw e;
            }
        };
    }

    @Override
    public String description() {
        return "bmv2 " + simpleSwitch;
    }

    @Override
    public long cpuNanos() {
        return bmv2.cpu().toNanos();
    }

    @Override
    public long receiveDrops() {
        return -1;
    }

    @Override
    public void close() throws InterruptedException {
        bmv2.close();
    }
}
