package dev.innet.p4sim.bench;

import dev.innet.cli.Cli;
import dev.innet.cli.ExistingDirectory;
import dev.innet.p4sim.ports.LiveSwitch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code innet bench p4sim}: p4sim's benchmarks on the cache pipelines with their STF scenarios,
 * printing the method with each figure.
 */
@Command(name = "innet bench p4sim", sortOptions = false, usageHelpAutoWidth = true,
        description = "p4sim packets per second on the cache pipelines, in-process and over a veth pair "
                + "(method: docs/p4sim.md).")
public final class Bench implements Callable<Integer> {
    private record Workload(String program, int hitPacket, String what) { }

    private static final Workload[] WORKLOADS = {
        // packet 25 of farreach.stf / 23 of netcache.stf: a GET the switch answers from its cache with a 128-byte value
        new Workload("farreach", 26, "FR-2 read hit, 16-byte key, 128-byte value (16 words)"),
        new Workload("netcache", 23, "read hit, 16-byte key, 128-byte value (16 words)"),
    };
    private static final double WARMUP_SECONDS = 2;
    private static final double SEARCH_SECONDS = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--root", paramLabel = "DIR", converter = ExistingDirectory.class,
            description = "the repository root, holding p4/ (default: the current directory)")
    private Path root = Path.of(".");

    @Option(names = "--bmv2-path", paramLabel = "DIRS",
            description = "where p4c-bm2-ss (or p4c), simple_switch and simple_switch_CLI are looked for, ':'-separated "
                    + "(default: PATH); found, bmv2 is measured on the same harness and the ratios printed")
    private String bmv2Path = System.getenv("PATH");

    @Parameters(index = "0", arity = "0..1", paramLabel = "SECONDS",
            description = "timed seconds per measurement (default: ${DEFAULT-VALUE})")
    private double seconds = 5;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    private boolean help;

    private final PrintStream out;

    Bench(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return Cli.run("innet bench p4sim", new Bench(out), args, out, err);
    }

    @Override
    public Integer call() throws Exception {
        // NaN and infinity parse as doubles but are no duration
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw Cli.usageError(spec, "SECONDS must be a positive number, got " + seconds);
        }
        for (Workload w : WORKLOADS) {
            for (Path needed : new Path[] {program(w), scenario(w)}) {
                if (!Files.isRegularFile(needed)) {
                    throw Cli.usageError(spec, "no " + needed + " (is --root the repository root?)");
                }
            }
        }
        out.println("method: the program is prepared by the first K-1 packets (and all commands) of p4/tests/NAME.stf;");
        out.println("        then packet K is processed repeatedly. In-process: one thread, zero-copy PacketSink, "
                + seconds + " s after " + (int) WARMUP_SECONDS + " CPU-seconds of warm-up,");
        out.println("        rate = packets / CPU time of that thread (also per 0.5 s slice), and wall-clock rate.");
        for (Workload w : WORKLOADS) {
            out.println("in-process, " + w.what() + " (packet " + w.hitPacket() + "):");
            out.println("  " + InProcessBench.run(program(w), scenario(w), w.hitPacket(), WARMUP_SECONDS, seconds));
            out.printf("  load average %.2f%n", VethBench.loadAverage());
        }
        Workload v = WORKLOADS[0];
        out.println("veth: the switch on one end of a veth pair, a traffic generator and a reply counter on the other end (both on");
        out.println("      PACKET_MMAP rings); rate = replies received per second. Saturation: the generator sends as fast as it");
        out.println("      can for " + seconds + " s. Lossless: the highest rate sent with no reply missing, found by doubling the");
        out.println("      offered rate from 25k/s, then bisecting, " + SEARCH_SECONDS + " s per step. Old path (plain sockets), then rings:");
        try {
            out.printf("  load average %.2f%n", VethBench.loadAverage());
            VethBench.Result old = VethBench.run(program(v), scenario(v), v.hitPacket(), seconds, LiveSwitch.Io.SOCKET, 0);
            out.println("  " + old);
            out.printf("  load average %.2f%n", VethBench.loadAverage());
            VethBench.Result rings = VethBench.run(program(v), scenario(v), v.hitPacket(), seconds, LiveSwitch.Io.RING, SEARCH_SECONDS);
            out.println("  " + rings);
            out.printf("  load average %.2f%n", VethBench.loadAverage());
            out.printf("  rings / plain sockets: saturation %.1fx, replies per switch CPU-second %.1fx%n",
                    rings.saturation().replyRate() / Math.max(1, old.saturation().replyRate()),
                    Bmv2Bench.perSwitchCpu(rings.saturation()) / Math.max(1, Bmv2Bench.perSwitchCpu(old.saturation())));
            Bmv2Bench.run(out, bmv2Path, root, program(v), scenario(v), v.hitPacket(), seconds, SEARCH_SECONDS, rings);
        } catch (IOException e) {
            // no CAP_NET_ADMIN or no veth support here: the in-process figures still stand
            out.println("  skipped: " + e.getMessage());
        }
        return 0;
    }

    private Path program(Workload w) {
        return root.resolve("p4/" + w.program() + ".p4");
    }

    private Path scenario(Workload w) {
        return root.resolve("p4/tests/" + w.program() + ".stf");
    }
}
