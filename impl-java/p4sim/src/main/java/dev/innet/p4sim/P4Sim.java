package dev.innet.p4sim;

import dev.innet.p4sim.compiler.Compiler;
import dev.innet.p4sim.frontend.CheckedProgram;
import dev.innet.p4sim.frontend.FrontEnd;
import dev.innet.p4sim.runtime.RandomSource;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * Entry point for embedding p4sim: {@code P4Sim.compile(path).instantiate(config)} gives a switch
 * that runs the program. Compilation errors are {@link dev.innet.p4sim.frontend.CompileError}s whose
 * message starts with {@code file:line:col: error:}.
 */
public final class P4Sim {
    private P4Sim() { }

    /** A checked program; each {@link #instantiate} creates an independent switch (own tables, registers). */
    public record Program(CheckedProgram checked) {
        public P4Switch instantiate(SwitchConfig config) {
            return new P4Switch(Compiler.compile(checked, RandomSource.seeded(config.randomSeed()), config.specialize(),
                    config.coverage()), config);
        }

        public P4Switch instantiate() {
            return instantiate(SwitchConfig.defaults());
        }
    }

    public static Program compile(Path program, List<Path> includePath) {
        Program p = new Program(FrontEnd.check(program, includePath));
        // run the code generator once so back-end errors surface at compile time, not at instantiation
        p.instantiate(SwitchConfig.defaults().withSpecialization(false));
        return p;
    }

    public static Program compile(Path program) {
        return compile(program, List.of());
    }

    public static Program compileText(String fileName, String source) {
        Program p = new Program(FrontEnd.checkText(fileName, source));
        p.instantiate(SwitchConfig.defaults().withSpecialization(false));
        return p;
    }
}
