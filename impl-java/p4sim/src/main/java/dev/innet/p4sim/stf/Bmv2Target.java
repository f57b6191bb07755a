package dev.innet.p4sim.stf;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.bmv2.Bmv2Process;
import dev.innet.p4sim.bmv2.Bmv2Tools;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.v1model.P4Switch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code ./innet stf --target bmv2}: the same test on bmv2's {@code simple_switch}, the way p4c's own runner
 * runs it there: the program compiled with p4c's bmv2 back end; simple_switch given one interface per port
 * the script names in {@code packet} and {@code expect} lines (a veth pair each, {@link Bmv2PacketPath});
 * the script's commands through {@code simple_switch_CLI} ({@link dev.innet.p4sim.bmv2.Bmv2CliControl}); its
 * packets sent on the other ends; the outputs matched as p4c's runner matches them (per port, in order, at the
 * end of the script). p4sim parses the program only to read its tables' keys and actions for the script's
 * {@code add} lines. bmv2 and p4c cannot be installed here (TOOLCHAIN.md): this runs against the stand-ins of
 * ptf/tests/bmv2-standin in the tests (docs/p4sim.md, "STF tests").
 */
final class Bmv2Target {
    private Bmv2Target() { }

    static int run(Path program, Path script, PrintStream out, PrintStream err) {
        return run(program, script, out, err, System.getenv("PATH"));
    }

    /** {@code path}: where the tools are looked for (the environment's PATH; tests pass their own). */
    static int run(Path program, Path script, PrintStream out, PrintStream err, String path) {
        Bmv2Tools tools;
        try {
            tools = Bmv2Tools.find(path);
        } catch (Bmv2Tools.Missing missing) {
            err.println("stf: " + missing.getMessage());
            return StfMain.EXIT_BAD_INPUT;
        }
        P4Switch tables;
        String text;
        try {
            tables = P4Sim.compile(program).instantiate();
            text = Files.readString(script);
        } catch (CompileError e) {
            err.println("stf: p4sim reads the program's tables for the script's commands and cannot parse it: " + e.getMessage());
            return StfMain.EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("stf: cannot read " + script + ": " + e.getMessage());
            return StfMain.EXIT_BAD_INPUT;
        }
        Set<Integer> ports = StfRunner.scriptPorts(StfRunner.lines(text));
        Path work;
        try {
            work = Files.createTempDirectory("innet-stf-bmv2");
        } catch (IOException e) {
            err.println("stf: " + e.getMessage());
            return StfMain.EXIT_BAD_INPUT;
        }
        try (Bmv2PacketPath cabling = new Bmv2PacketPath(ports);
             Bmv2Process bmv2 = Bmv2Process.start(tools, program, program.toAbsolutePath().getParent(),
                     cabling.switchInterfaces(), work)) {
            StfRunner runner = new StfRunner(tables, bmv2.cli()).p4cMatching().through(cabling);
            List<String> failures = runner.run(script.toString(), text);
            if (!runner.formatErrors().isEmpty()) {
                runner.formatErrors().forEach(err::println);
                return StfMain.EXIT_BAD_INPUT;
            }
            if (failures.isEmpty()) {
                out.println(program + ": pass (bmv2: " + tools.simpleSwitch() + ")");
                return StfMain.EXIT_PASS;
            }
            failures.forEach(err::println);
            out.println(program + ": FAIL on bmv2 (" + failures.size() + " failure(s))");
            return StfMain.EXIT_FAIL;
        } catch (IOException e) {
            err.println("stf: bmv2: " + e.getMessage() + " (logs in " + work + ")");
            return StfMain.EXIT_BAD_INPUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("stf: interrupted");
            return StfMain.EXIT_BAD_INPUT;
        }
    }
}
