package dev.innet.p4sim.frontend;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * A type-checked v1model program: the six blocks of {@code V1Switch}, the user's header and metadata
 * types, and the values of every compile-time constant (keyed by declaration, or "Enum.member" for
 * serializable enum members).
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
        List<Ast.FunctionDecl> functions) {

    public ConstEval constEval() {
        return new ConstEval(constValues);
    }
}
