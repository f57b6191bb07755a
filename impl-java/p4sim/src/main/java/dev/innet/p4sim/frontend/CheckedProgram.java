package dev.innet.p4sim.frontend;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * A type-checked v1model program: the six blocks of {@code V1Switch}, the user's header and metadata
 * types, and the values of every compile-time constant (keyed by declaration, or "Enum.member" for
 * serializable enum members). {@code warnings} are what p4c would warn about and p4sim accepts the same way,
 * each {@code file:line:col: warning: ...}.
 */
public record CheckedProgram(
        Ast.Program ast,
        Ast.ParserDecl parser,
        Ast.ControlDecl verifyChecksum,
        Ast.ControlDecl ingress,
        Ast.ControlDecl egress,
        Ast.ControlDecl computeChecksum,
        Ast.ControlDecl deparser,
        Type headersType,
        Type metadataType,
        Type.Struct standardMetadataType,
        Type.Enum errorType,
        Map<Object, BigInteger> constValues,
        List<Ast.ActionDecl> globalActions,
        List<Ast.FunctionDecl> functions,
        Map<String, List<String>> sourceLines,
        List<String> warnings) {

    /** The same program with the source files' lines (by position file name) attached. */
    public CheckedProgram withSourceLines(Map<String, List<String>> lines) {
        return new CheckedProgram(ast, parser, verifyChecksum, ingress, egress, computeChecksum, deparser, headersType,
                metadataType, standardMetadataType, errorType, constValues, globalActions, functions, Map.copyOf(lines),
                warnings);
    }

    /** Line {@code line} (from 1) of {@code file}, stripped, or "" when the text is not known. */
    public String sourceLine(String file, int line) {
        List<String> lines = sourceLines.get(file);
        return lines == null || line < 1 || line > lines.size() ? "" : lines.get(line - 1).strip();
    }

    public ConstEval constEval() {
        return new ConstEval(constValues);
    }
}
