package dev.innet.conformance;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.switchapi.SwitchControl;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The default replay target: p4sim running the protocol's P4 program in process, with the rack's
 * cabling (the controller is an ordinary host on the CPU port, as in the simulator's racks).
 */
public final class P4simReplayTarget implements ReplayTarget {
    private final P4Sim.Program program;
    private final long seed;
    /** Where each new switch's coverage goes, or null: switches without coverage probes. */
    private final P4Coverage coverage;
    private P4Switch sw;

    /** Compiles {@code program} (with {@code p4/} of the repository on the include path). */
    public P4simReplayTarget(Path repositoryRoot, Path program, long seed) {
        this(P4Sim.compile(program, List.of(repositoryRoot.resolve("p4"))), seed, null);
    }

    P4simReplayTarget(P4Sim.Program program, long seed, P4Coverage coverage) {
        this.program = program;
        this.seed = seed;
        this.coverage = coverage;
        this.sw = fresh();
    }

    /**
     * Fresh targets (empty tables and registers) of one program compiled once: a suite replays many
     * traces, each on a new switch, and compiling the program for each would repeat the same work.
     */
    public static java.util.function.Supplier<ReplayTarget> factory(Path repositoryRoot, Path program, long seed) {
        return factory(repositoryRoot, program, seed, null);
    }

    /** The same, with every switch counting its P4 coverage into {@code coverage} (null: none). */
    public static java.util.function.Supplier<ReplayTarget> factory(Path repositoryRoot, Path program, long seed,
            P4Coverage coverage) {
        P4Sim.Program compiled = P4Sim.compile(program, List.of(repositoryRoot.resolve("p4")));
        return () -> new P4simReplayTarget(compiled, seed, coverage);
    }

    private P4Switch fresh() {
        P4Switch s = program.instantiate(SwitchConfig.defaults().withCpuPort(-1).withSeed(seed).withCoverage(coverage != null));
        if (coverage != null) {
            coverage.add(s.coverageSource());
        }
        return s;
    }

    /** The switch serving now (a crash replaces it): what a P4Runtime server in front of this target serves. */
    P4Switch p4Switch() {
        return sw;
    }

    @Override
    public List<Emitted> inject(int port, byte[] frame) {
        List<Emitted> out = new ArrayList<>(2);
        sw.process(port, frame, 0, frame.length, (p, buf, off, len) -> out.add(new Emitted(p, Arrays.copyOfRange(buf, off, off + len))));
        return out;
    }

    @Override
    public SwitchControl control() {
        return sw.control();
    }

    @Override
    public void crash() {
        sw = fresh();
    }

    /** A second switch of the same compiled program, with its own tables and registers, counted in the same coverage. */
    @Override
    public ReplayTarget another() {
        return new P4simReplayTarget(program, seed, coverage);
    }
}
