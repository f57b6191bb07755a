package dev.innet.p4sim.bench;

import dev.innet.cli.Cli;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.ports.AfPacketPort;
import dev.innet.p4sim.ports.LiveSwitch;
import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Throughput over a veth pair: the switch runs on one end (AF_PACKET, its own reader thread), a
 * generator thread on the other end sends the workload packet open-loop and a receiver thread counts
 * the switch's replies coming back. The figure is replies per second: what the whole path (kernel
 * veth, two AF_PACKET sockets, the FFM calls and the pipeline) sustains. Needs CAP_NET_ADMIN.
 */
public final class VethBench {
    public record Result(String program, long sent, long replies, double seconds) {
        @Override
        public String toString() {
            return String.format("%s over a veth pair (AF_PACKET both ends): %,.0f replies/s (%,d sent, %,d replies in %.1f s)",
                    program, replies / seconds, sent, replies, seconds);
        }
    }

    private VethBench() { }

    static boolean ip(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    public static Result run(Path program, Path stf, int packetIndex, double seconds) throws Exception {
        P4Switch sw = P4Sim.compile(program).instantiate();
        List<String> prefix = new ArrayList<>();
        String workload = null;
        int seen = 0;
        for (String l : Files.readAllLines(stf)) {
            if (l.startsWith("packet ") && ++seen == packetIndex) {
                workload = l;
                break;
            }
            prefix.add(l);
        }
        if (workload == null) {
            throw new IllegalArgumentException(stf + " has fewer than " + packetIndex + " packets");
        }
        List<String> failures = new StfRunner(sw).run(stf.toString(), String.join("\n", prefix));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("scenario prefix failed: " + failures);
        }
        String[] w = workload.split("\\s+", 3);
        int port = Integer.parseInt(w[1]);
        byte[] frame = HexFormat.of().parseHex(w[2].replaceAll("\\s+", ""));
        String tag = Long.toHexString(ProcessHandle.current().pid() & 0xFFFF);
        String host = "p4b" + tag + "h";
        String sws = "p4b" + tag + "s";
        if (!ip("link", "add", host, "type", "veth", "peer", "name", sws)) {
            throw new IOException("cannot create a veth pair (needs CAP_NET_ADMIN)");
        }
        try {
            ip("link", "set", "dev", host, "up");
            ip("link", "set", "dev", sws, "up");
            AtomicLong replies = new AtomicLong();
            AtomicLong sent = new AtomicLong();
            AfPacketPort gen = new AfPacketPort(host, 16384);
            try (LiveSwitch live = new LiveSwitch(sw, sw)) {
                live.attach(port, sws);
                live.start();
                long end = System.nanoTime() + (long) (seconds * 1e9);
                Thread rx = Thread.ofPlatform().start(() -> {
                    byte[] buf = new byte[16384];
                    try {
                        while (System.nanoTime() < end + 500_000_000L) {
                            int n = gen.receive(buf);
                            if (n < 0) {
                                return;
                            }
                            if (n > 14 && buf[12] == 0x08 && buf[13] == 0x00) {
                                replies.incrementAndGet();
                            }
                        }
                    } catch (IOException e) {
                        // port closed at the end of the run
                    }
                });
                long start = System.nanoTime();
                while (System.nanoTime() < end) {
                    gen.send(frame, 0, frame.length);
                    sent.incrementAndGet();
                }
                double elapsed = (System.nanoTime() - start) / 1e9;
                Thread.sleep(300);
                gen.close();
                rx.join(2000);
                return new Result(program.getFileName().toString(), sent.get(), replies.get(), elapsed);
            } finally {
                gen.close();
            }
        } finally {
            ip("link", "del", host);
        }
    }

    public static void main(String[] args) {
        System.exit(Cli.run("VethBench", new FromCommandLine(), args, System.out, System.err));
    }

    /** The benchmark of one workload, as {@code innet bench p4sim} runs it for each. */
    @Command(name = "VethBench", description = "One workload of innet bench p4sim (docs/p4sim.md).")
    static final class FromCommandLine implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Mixin
        private WorkloadArguments w;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
        private boolean help;

        @Override
        public Integer call() throws Exception {
            w.check(spec);
            System.out.println(run(w.program, w.scenario, w.packetIndex, w.seconds));
            return 0;
        }
    }
}
