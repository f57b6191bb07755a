package dev.innet.p4sim.ports;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** iproute2's {@code ip}, run to completion: how p4sim's benchmarks and bmv2 runs cable veth pairs. */
public final class IpCommand {
    private IpCommand() { }

    /** Runs {@code ip ARGS...}, output discarded; whether it exited 0. */
    public static boolean run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }
}
