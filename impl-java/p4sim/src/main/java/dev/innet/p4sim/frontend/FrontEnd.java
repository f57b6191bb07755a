package dev.innet.p4sim.frontend;

import java.nio.file.Path;
import java.util.List;

/** Preprocess, parse and type-check a P4 program: the whole front end behind one call. */
public final class FrontEnd {
    private FrontEnd() { }

    public static CheckedProgram check(Path program, List<Path> includePath) {
        Preprocessor pre = new Preprocessor(includePath);
        List<Token> toks = pre.run(program);
        return new TypeChecker().check(new Parser(toks).parseProgram()).withSourceLines(pre.sources());
    }

    /** For tests and tools: source text with a file name used in positions. */
    public static CheckedProgram checkText(String fileName, String source) {
        Preprocessor pre = new Preprocessor(List.of());
        List<Token> toks = pre.runText(fileName, null, source);
        return new TypeChecker().check(new Parser(toks).parseProgram()).withSourceLines(pre.sources());
    }
}
