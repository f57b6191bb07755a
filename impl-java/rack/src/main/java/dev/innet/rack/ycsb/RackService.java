package dev.innet.rack.ycsb;

import dev.innet.protocol.KvCommandLine;
import dev.innet.protocol.KvResult;
import dev.innet.rack.Rack;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.workload.DriverClient;
import dev.innet.sim.live.CommandSocket;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A simulated rack kept in a process that YCSB's client processes connect to, so that YCSB's load and
 * run phases (two invocations of {@code site.ycsb.Client}) see the same data. It lays out its sockets
 * as a live rack does ({@code DIR/sock/hN.sock}, one per client host, answering {@code health} and
 * {@link KvCommandLine} requests), so the YCSB binding ({@link InnetDB}) drives a simulated and a live
 * rack the same way. A control socket, {@code DIR/sock/service.sock}, answers {@code health},
 * {@code stats}, {@code check DIR} (the rack's history so far, written to {@code DIR/ycsb.jsonl} and
 * checked by the lost-write monitor and porcupine) and {@code stop}.
 */
public final class RackService implements AutoCloseable {
    public static final String CONTROL_SOCKET = "service.sock";
    private static final long OPERATION_TIMEOUT_SECONDS = 60;

    private final SharedRack shared;
    private final Rack rack;
    private final String protocol;
    private final Path root;
    private final List<CommandSocket> sockets = new ArrayList<>();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private RackService(Rack rack, String protocol, Path root) {
        this.rack = rack;
        this.root = root;
        this.shared = new SharedRack(rack);
        this.protocol = protocol;
    }

    /** Starts serving {@code rack} on sockets under {@code dir/sock}; {@code root} is the repository (for checks). */
    public static RackService start(Rack rack, String protocol, Path root, Path dir) throws IOException {
        RackService s = new RackService(rack, protocol, root);
        try {
            for (int host : rack.clients()) {
                s.sockets.add(CommandSocket.listen(socketOf(dir, host), request -> s.answerClient(host, request)));
            }
            s.sockets.add(CommandSocket.listen(dir.resolve("sock").resolve(CONTROL_SOCKET), s::answerControl));
        } catch (IOException e) {
            s.close();
            throw e;
        }
        return s;
    }

    public static Path socketOf(Path dir, int host) {
        return dir.resolve("sock").resolve("h" + host + ".sock");
    }

    public SharedRack shared() {
        return shared;
    }

    /** The rack; read it only through {@link SharedRack#inspect} while the service runs. */
    public Rack rack() {
        return rack;
    }

    /** Blocks until a {@code stop} request arrives. */
    public void awaitStop() throws InterruptedException {
        stopped.await();
    }

    private String answerClient(int host, String request) {
        if (request.equals("health")) {
            return "ok role=client protocol=" + protocol + " host=" + host + " ready=yes";
        }
        if (!KvCommandLine.isKvLine(request)) {
            return "error: unknown request '" + request.split(" ")[0] + "' (health, kv)";
        }
        KvCommandLine.Request r = KvCommandLine.parseRequest(request);
        try {
            KvResult result = shared.execute(host, DriverClient.Kind.valueOf(r.op().name()), r.key(),
                    r.op() == KvCommandLine.Op.PUT ? r.value() : null).get(OPERATION_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return KvCommandLine.reply(result);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "error: interrupted";
        } catch (TimeoutException e) {
            return "error: no result within " + OPERATION_TIMEOUT_SECONDS + " s";
        } catch (java.util.concurrent.ExecutionException e) {
            return "error: " + e.getCause().getMessage();
        }
    }

    private String answerControl(String request) {
        String[] w = request.split(" ");
        try {
            return switch (w[0]) {
                case "health" -> "ok role=service protocol=" + protocol + " clients=" + rack.clients().size() + " ready=yes";
                case "stats" -> "ok " + shared.inspect(() -> describe(rack.controllerCounters()) + " operations="
                        + rack.history().operations().size() + " simulated_ms=" + rack.simulation().now() / 1_000_000);
                case "check" -> {
                    if (w.length != 2) {
                        throw new IllegalArgumentException("usage: check DIR");
                    }
                    RunVerdict v = shared.inspect(() -> RunVerdict.of(root, rack, Path.of(w[1]), "ycsb"));
                    yield (v.safe() ? "ok " : "violation ") + v.describe();
                }
                case "stop" -> {
                    stopped.countDown();
                    yield "ok stopping";
                }
                default -> "error: unknown request '" + w[0] + "' (health, stats, check DIR, stop)";
            };
        } catch (Exception e) {
            return "error: " + e.getMessage();
        }
    }

    private static String describe(Map<String, Long> counters) {
        StringBuilder sb = new StringBuilder();
        new java.util.TreeMap<>(counters).forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return sb.isEmpty() ? "counters=none" : sb.toString();
    }

    @Override
    public void close() {
        sockets.forEach(CommandSocket::close);
        shared.close();
        stopped.countDown();
    }
}
