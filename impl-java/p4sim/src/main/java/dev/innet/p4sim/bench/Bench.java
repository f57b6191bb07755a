package dev.innet.p4sim.bench;

import java.nio.file.Path;

/**
 * {@code innet bench p4sim}: p4sim's benchmarks on the cache pipelines with their STF scenarios,
 * printing the method with each figure. Arguments: [REPO_ROOT] [SECONDS].
 */
public final class Bench {
    private Bench() { }

    private record Workload(String program, int hitPacket, String what) { }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        double secs = args.length > 1 ? Double.parseDouble(args[1]) : 5;
        Workload[] workloads = {
            // packet 25 of farreach.stf / 23 of netcache.stf: a GET the switch answers from its cache with a 128-byte value
            new Workload("farreach", 25, "FR-2 read hit, 16-byte key, 128-byte value (16 words)"),
            new Workload("netcache", 23, "read hit, 16-byte key, 128-byte value (16 words)"),
        };
        System.out.println("method: the program is prepared by the first K-1 packets (and all commands) of p4/tests/NAME.stf;");
        System.out.println("        then packet K is processed repeatedly. In-process: one thread, zero-copy PacketSink, "
                + secs + " s after 2 s warm-up,");
        System.out.println("        rate = packets / CPU time of that thread (also per 0.5 s slice), and wall-clock rate.");
        for (Workload w : workloads) {
            Path program = root.resolve("p4/" + w.program() + ".p4");
            Path stf = root.resolve("p4/tests/" + w.program() + ".stf");
            System.out.println("in-process, " + w.what() + " (packet " + w.hitPacket() + "):");
            System.out.println("  " + InProcessBench.run(program, stf, w.hitPacket(), 2, secs));
        }
        Workload v = workloads[0];
        System.out.println("veth: the switch on one end of a veth pair (AF_PACKET reader thread), an open-loop generator and a");
        System.out.println("      reply counter on the other end; rate = replies received per second, " + secs + " s:");
        try {
            System.out.println("  " + VethBench.run(root.resolve("p4/" + v.program() + ".p4"),
                    root.resolve("p4/tests/" + v.program() + ".stf"), v.hitPacket(), secs));
        } catch (java.io.IOException e) {
            System.out.println("  skipped: " + e.getMessage());
        }
    }
}
