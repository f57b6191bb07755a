package dev.innet.app;

import dev.innet.protocol.ProtocolRegistry;
import dev.innet.rack.Rack;
import dev.innet.rack.ycsb.InnetDB;
import dev.innet.rack.ycsb.RackService;
import dev.innet.sim.live.CommandSocket;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./innet ycsb}: YCSB's own client ({@code site.ycsb.Client}) against an innet rack (docs/ycsb.md).
 *
 * <pre>
 *   ycsb serve [--name N] [--protocol P] [--servers S] [--clients C] [--cache K] [--hot-threshold T] [--seed S]
 *   ycsb load|run [--rack sim|live] [--name N] [serve's options] YCSB-ARGUMENTS...
 *   ycsb check|stop|status [--name N]
 * </pre>
 *
 * {@code serve} keeps a simulated rack in this process ({@link RackService}); {@code load} and
 * {@code run} start one in the background if none of that name answers, then hand the remaining
 * arguments (YCSB's: {@code -P workloads/workloada -p recordcount=1000 -threads 4 ...}) to
 * {@code site.ycsb.Client} with the innet binding, whose exit status becomes ours. With {@code --rack
 * live} they drive the client hosts of a live rack ({@code ./innet rack up}) instead. {@code check}
 * checks the simulated rack's history so far (lost writes, porcupine), {@code stop} checks and stops it.
 */
public final class YcsbMain {
    private static final Set<String> SERVICE_OPTIONS = Set.of("--protocol", "--servers", "--clients", "--cache",
            "--hot-threshold", "--seed");
    private static final long START_TIMEOUT_MILLIS = 120_000;

    private final Path root;
    private final Map<String, String> options = new LinkedHashMap<>();
    private final List<String> ycsbArgs = new ArrayList<>();

    YcsbMain(Path root) {
        this.root = root;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("innet.root", ".")).toAbsolutePath().normalize();
        YcsbMain m = new YcsbMain(root);
        Integer early = m.checkArguments(args, System.out, System.err);
        System.exit(early != null ? early : m.dispatch(args[0]));
    }

    /**
     * Parses {@code args}; null when the command is to run, else its exit status: 0 after help, 2 after
     * one line on {@code err} naming a bad argument (nothing has run).
     */
    Integer checkArguments(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            (args.length == 0 ? err : out).println(usage());
            return args.length == 0 ? 2 : 0;
        }
        try {
            parse(args);
            return null;
        } catch (IllegalArgumentException e) {
            err.println("innet ycsb: " + e.getMessage());
            return 2;
        }
    }

    static String usage() {
        return String.join("\n",
                "usage: ./innet ycsb serve [--name N] [--protocol farreach|netcache|nocache] [--servers 4] [--clients 4]",
                "                          [--cache 1000] [--hot-threshold T (default: the P4 program's)] [--seed 1]",
                "       ./innet ycsb load|run [--rack sim|live] [--name N] [serve's options] YCSB-ARGUMENTS...",
                "       ./innet ycsb check|stop|status [--name N]",
                "YCSB-ARGUMENTS go to site.ycsb.Client as they are, e.g. -P workloads/workloada -threads 4 -p recordcount=1000.",
                "load and run start a simulated rack service of that name if none answers; they share it (docs/ycsb.md).");
    }

    private void parse(String[] args) {
        String command = args[0];
        if (!Set.of("serve", "load", "run", "check", "stop", "status").contains(command)) {
            throw new IllegalArgumentException("unknown subcommand '" + command + "' (serve, load, run, check, stop, status)");
        }
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                boolean known = a.equals("--name") || (a.equals("--rack") && (command.equals("load") || command.equals("run")))
                        || (SERVICE_OPTIONS.contains(a) && Set.of("serve", "load", "run").contains(command));
                if (!known) {
                    throw new IllegalArgumentException("unknown option '" + a + "' for ycsb " + command);
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                options.put(a, args[++i]);
            } else if (command.equals("load") || command.equals("run")) {
                ycsbArgs.add(a);
            } else {
                throw new IllegalArgumentException("ycsb " + command + " takes no argument '" + a + "'");
            }
        }
        String rack = options.getOrDefault("--rack", "sim");
        if (!rack.equals("sim") && !rack.equals("live")) {
            throw new IllegalArgumentException("--rack must be sim or live, got '" + rack + "'");
        }
        if (rack.equals("live") && options.keySet().stream().anyMatch(SERVICE_OPTIONS::contains)) {
            throw new IllegalArgumentException("a live rack is set up by ./innet rack up; --protocol and the like do not apply");
        }
        for (String numeric : List.of("--servers", "--clients", "--cache", "--hot-threshold", "--seed")) {
            if (options.containsKey(numeric)) {
                try {
                    long least = numeric.equals("--servers") || numeric.equals("--clients") ? 1 : 0;
                    if (Long.parseLong(options.get(numeric)) < least) {
                        throw new NumberFormatException();
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(numeric + " must be an integer of at least "
                            + (numeric.equals("--servers") || numeric.equals("--clients") ? 1 : 0) + ", got '" + options.get(numeric) + "'");
                }
            }
        }
        if (options.containsKey("--protocol")) {
            ProtocolRegistry.byName(options.get("--protocol")); // an unknown name is an IllegalArgumentException
        }
        if (options.containsKey("--name") && !options.get("--name").matches("[A-Za-z0-9_-]{1,32}")) {
            throw new IllegalArgumentException("--name must be 1-32 letters, digits, '-' or '_'");
        }
    }

    private boolean live() {
        return options.getOrDefault("--rack", "sim").equals("live");
    }

    /** The rack's directory: a live rack's state directory, or the simulated service's. */
    private Path rackDir() {
        return live() ? root.resolve(".cache/rack").resolve(options.getOrDefault("--name", "rack"))
                : root.resolve(".cache/ycsb").resolve(options.getOrDefault("--name", "sim"));
    }

    private Path controlSocket() {
        return rackDir().resolve("sock").resolve(RackService.CONTROL_SOCKET);
    }

    private int dispatch(String command) throws Exception {
        return switch (command) {
            case "serve" -> serve();
            case "load", "run" -> runYcsb(command.equals("load"));
            case "check" -> ask("check " + rackDir().resolve("check"));
            case "stop" -> {
                if (!serviceAnswers()) {
                    System.err.println("innet ycsb: no rack service answers on " + controlSocket());
                    yield 1;
                }
                int verdict = ask("check " + rackDir().resolve("check"));
                int stopped = ask("stop");
                yield stopped != 0 ? stopped : verdict;
            }
            default -> ask("stats");
        };
    }

    private int serve() throws Exception {
        if (serviceAnswers()) {
            System.err.println("innet ycsb: a rack service already answers on " + controlSocket() + " (./innet ycsb stop first)");
            return 1;
        }
        String protocol = options.getOrDefault("--protocol", "farreach");
        Rack rack = Rack.builder(root, Long.parseLong(options.getOrDefault("--seed", "1")))
                .protocol(ProtocolRegistry.byName(protocol))
                .servers(Integer.parseInt(options.getOrDefault("--servers", "4")))
                .clients(Integer.parseInt(options.getOrDefault("--clients", "4")))
                .cacheCapacity(Integer.parseInt(options.getOrDefault("--cache", "1000")))
                .hotThreshold(Integer.parseInt(options.getOrDefault("--hot-threshold", "0")))
                .driverClients().maxEvents(Long.MAX_VALUE / 4).out(new PrintStream(OutputStream.nullOutputStream())).build();
        rack.advance(1_000_000); // the controller programs the switch before traffic
        try (RackService service = RackService.start(rack, protocol, root, rackDir())) {
            System.out.println("innet ycsb: simulated " + protocol + " rack (" + rack.servers().size() + " servers, "
                    + rack.clients().size() + " clients) serving on " + rackDir().resolve("sock"));
            service.awaitStop();
        }
        System.out.println("innet ycsb: stopped");
        return 0;
    }

    private boolean serviceAnswers() {
        try {
            return CommandSocket.ask(controlSocket(), "health", 2_000).startsWith("ok");
        } catch (IOException e) {
            return false;
        }
    }

    private int runYcsb(boolean load) throws Exception {
        if (!live() && !serviceAnswers()) {
            startService();
        }
        List<String> args = new ArrayList<>(List.of(load ? "-load" : "-t", "-db", InnetDB.class.getName(),
                "-p", "innet.root=" + root, "-p", "innet.rack=" + rackDir()));
        args.addAll(ycsbArgs);
        site.ycsb.Client.main(args.toArray(String[]::new)); // exits with YCSB's status
        return 0;
    }

    /** Starts {@code ycsb serve} with this process's options as a process of its own, and waits until it answers. */
    private void startService() throws Exception {
        Files.createDirectories(rackDir());
        Path log = rackDir().resolve("service.log");
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid"); // its own session: a Ctrl-C on this YCSB run does not stop the rack
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Dinnet.root=" + root, "-cp", System.getProperty("java.class.path"),
                YcsbMain.class.getName(), "serve"));
        options.forEach((k, v) -> {
            if (!k.equals("--rack")) {
                cmd.add(k);
                cmd.add(v);
            }
        });
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        System.err.println("innet ycsb: started a simulated rack service (pid " + p.pid() + ", log " + log + ")");
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (!serviceAnswers()) {
            if (!p.isAlive() && !serviceAnswers()) {
                throw new IllegalStateException("the rack service exited (" + p.exitValue() + "): see " + log);
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the rack service did not answer within " + START_TIMEOUT_MILLIS / 1000 + " s: see " + log);
            }
            Thread.sleep(200);
        }
    }

    /** Sends one control request and prints the reply: exit 0 for an {@code ok}, 1 for anything else or no service. */
    private int ask(String request) {
        try {
            String reply = CommandSocket.ask(controlSocket(), request, 600_000);
            System.out.println(reply);
            return reply.startsWith("ok") ? 0 : 1;
        } catch (IOException e) {
            System.err.println("innet ycsb: no rack service answers on " + controlSocket() + ": " + e.getMessage());
            return 1;
        }
    }
}
