package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Ast.*;

/** Renders simple expressions (table keys) back to source form for names and messages. */
final class ExprText {
    private ExprText() { }

    static String of(Expr e) {
        return switch (e) {
            case Name n -> n.name;
            case Member m -> of(m.target) + "." + m.member;
            case Index i -> of(i.target) + "[" + of(i.index) + "]";
            case Slice s -> of(s.target) + "[" + s.hiBit + ":" + s.loBit + "]";
            case IntLit l -> l.value.toString();
            case Call c -> of(c.callee) + "()";
            case Cast c -> "(cast)" + of(c.operand);
            case Binary b -> of(b.left) + " " + b.op + " " + of(b.right);
            case Unary u -> u.op + of(u.operand);
            case BoolLit bl -> String.valueOf(bl.value);
            default -> e.getClass().getSimpleName();
        };
    }
}
