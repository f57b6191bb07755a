package dev.innet.p4sim.frontend;

import java.nio.file.Path;
import java.util.List;

/** Preprocess, parse and type-check a P4 program: the whole front end behind one call. */
public final class FrontEnd {
    private FrontEnd() { }

    public static CheckedProgram check(Path program, List<Path> includePath) {
        List<Token> toks = new Preprocessor(includePath).run(program);
        return new TypeChecker().check(new Parser(toks).parseProgram());
    }

    /** For tests and tools: source text with a file name used in positions. */
    public static CheckedProgram checkText(String fileName, String source) {
        List<Token> toks = new Preprocessor(List.of()).runText(fileName, null, source);
        return new TypeChecker().check(new Parser(toks).parseProgram());
    }
}
