package dev.innet.p4sim;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.switchapi.ControlException;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.ports.LiveSwitch;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code p4sim --program p4/x.p4 -i 0@veth0 -i 1@veth1 [--control-port 9090] [--cpu-port N]
 * [--commands sN-commands.txt] [-I includedir] [--seed S] [--check]}: runs a program on Linux
 * interfaces where {@code simple_switch} would, with bmv2's CLI command language on the control port.
 * {@code --check} only compiles the program and reports errors.
 */
public final class Main {
    private Main() { }

    public static void main(String[] args) throws Exception {
        System.exit(run(args));
    }

    static int run(String[] args) throws IOException, InterruptedException {
        Path program = null;
        List<Path> includes = new ArrayList<>();
        List<String> interfaces = new ArrayList<>();
        int controlPort = 9090;
        int cpuPort = -1;
        long seed = 1;
        Path commands = null;
        boolean checkOnly = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--program" -> program = Path.of(args[++i]);
                case "-I" -> includes.add(Path.of(args[++i]));
                case "-i", "--interface" -> interfaces.add(args[++i]);
                case "--control-port", "--thrift-port" -> controlPort = Integer.parseInt(args[++i]);
                case "--cpu-port" -> cpuPort = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--commands" -> commands = Path.of(args[++i]);
                case "--check" -> checkOnly = true;
                case "-h", "--help" -> {
                    System.out.println(usage());
                    return 0;
                }
                default -> {
                    System.err.println("p4sim: unknown argument '" + a + "'\n" + usage());
                    return 2;
                }
            }
        }
        if (program == null) {
            System.err.println("p4sim: --program is required\n" + usage());
            return 2;
        }
        P4Sim.Program compiled;
        try {
            compiled = P4Sim.compile(program, includes);
        } catch (CompileError e) {
            System.err.println(e.getMessage());
            return 1;
        }
        if (checkOnly) {
            System.out.println(program + ": ok");
            return 0;
        }
        P4Switch sw = compiled.instantiate(SwitchConfig.defaults().withSeed(seed).withCpuPort(cpuPort));
        CliSession cli = new CliSession(sw);
        if (commands != null) {
            int lineNo = 0;
            for (String line : Files.readAllLines(commands)) {
                lineNo++;
                try {
                    cli.execute(line);
                } catch (ControlException e) {
                    System.err.println(commands + ":" + lineNo + ": " + e.getMessage());
                    return 1;
                }
            }
        }
        LiveSwitch live = new LiveSwitch(sw, sw);
        for (String spec : interfaces) {
            int at = spec.indexOf('@');
            if (at < 0) {
                System.err.println("p4sim: interface must be PORT@NAME, got '" + spec + "'");
                return 2;
            }
            live.attach(Integer.parseInt(spec.substring(0, at)), spec.substring(at + 1));
        }
        try (ControlServer server = new ControlServer(controlPort, cli, sw)) {
            live.start();
            System.out.println("p4sim: running " + program + " on " + interfaces + ", control port " + server.port());
            Runtime.getRuntime().addShutdownHook(new Thread(live::close));
            Thread.currentThread().join();
        }
        return 0;
    }

    static String usage() {
        return "usage: p4sim --program FILE.p4 [-I DIR] [-i PORT@IFACE ...] [--control-port N] [--cpu-port N] "
                + "[--commands FILE] [--seed N] [--check]";
    }
}
