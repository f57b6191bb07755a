package dev.innet.p4sim.bench;

import dev.innet.p4sim.bmv2.Bmv2Tools;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bmv2 part of {@code innet bench p4sim}: when p4c's bmv2 back end, {@code simple_switch} and
 * {@code simple_switch_CLI} are on the search path, bmv2 runs the same program on the same veth harness,
 * brought to the same state, and its figures are printed beside p4sim's with the ratios; otherwise one
 * line names what is missing.
 */
final class Bmv2Bench {
    private Bmv2Bench() { }

    /**
     * @param searchPath where the tools are looked for (the environment's PATH by default)
     * @param rings      p4sim's figures on rings from the same run, for the ratios
     */
    static VethBench.Result run(PrintStream out, String searchPath, Path root, Path program, Path stf, int packetIndex,
            double seconds, double searchSeconds, VethBench.Result rings) throws Exception {
        Bmv2Tools tools;
        try {
            tools = Bmv2Tools.find(searchPath);
        } catch (Bmv2Tools.Missing missing) {
            out.println("bmv2: not measured, so no ratio: " + missing.getMessage());
            return null;
        }
        out.println("bmv2: the same harness, program and prepared state (the scenario's control calls and the"
                + " non-zero register cells, through simple_switch_CLI); " + tools.simpleSwitch() + ", compiled by "
                + tools.compiler() + "; switch CPU = the whole process:");
        Path work = Files.createTempDirectory("innet-bench-bmv2");
        VethBench.Result bmv2 = VethBench.run(PreparedScenario.of(program, stf, packetIndex),
                Bmv2UnderTest.with(tools, root.resolve("p4"), work), seconds, searchSeconds);
        out.println("  " + bmv2);
        out.println("  " + ratios(rings, bmv2));
        return bmv2;
    }

    /** p4sim over bmv2: saturation, lossless rate (where both found one), and replies per switch CPU-second. */
    static String ratios(VethBench.Result p4sim, VethBench.Result bmv2) {
        String lossless = p4sim.lossless() != null && bmv2.lossless() != null
                ? String.format("%.1fx", p4sim.lossless().sendRate() / Math.max(1, bmv2.lossless().sendRate()))
                : "n/a (no lossless rate found for one of them)";
        return String.format("p4sim (rings) / bmv2: saturation %.1fx, lossless %s, replies per switch CPU-second %.1fx",
                p4sim.saturation().replyRate() / Math.max(1, bmv2.saturation().replyRate()), lossless,
                perSwitchCpu(p4sim.saturation()) / Math.max(1e-9, perSwitchCpu(bmv2.saturation())));
    }

    static double perSwitchCpu(VethBench.Run r) {
        return r.replyRate() / Math.max(1e-9, r.switchCpu());
    }
}
