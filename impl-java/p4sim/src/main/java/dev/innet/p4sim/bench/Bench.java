package dev.innet.p4sim.bench;

import java.nio.file.Path;

/**
 * {@code innet bench p4sim}: both p4sim benchmarks on the largest cache pipeline with its STF
 * scenario, printing the method with each figure. Arguments: [REPO_ROOT] [SECONDS].
 */
public final class Bench {
    private Bench() { }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        double secs = args.length > 1 ? Double.parseDouble(args[1]) : 5;
        Path program = root.resolve("p4/netcache.p4");
        Path stf = root.resolve("p4/tests/netcache.stf");
        // packet 23 of netcache.stf: a GET the switch answers from its cache with a 128-byte value
        int hit = 23;
        System.out.println("method: " + program + " prepared by the first " + (hit - 1) + " packets of " + stf
                + "; then packet " + hit + " (GET of a cached 16-byte key, answered by the switch with a 128-byte value) repeated.");
        System.out.println("in-process: one thread, PacketSink path (no copies), " + secs + " s after 2 s warm-up:");
        System.out.println("  " + InProcessBench.run(program, stf, hit, 2, secs));
        System.out.println("veth: generator and switch on the two ends of a veth pair, AF_PACKET sockets, " + secs + " s:");
        try {
            System.out.println("  " + VethBench.run(program, stf, hit, secs));
        } catch (java.io.IOException e) {
            System.out.println("  skipped: " + e.getMessage());
        }
    }
}
