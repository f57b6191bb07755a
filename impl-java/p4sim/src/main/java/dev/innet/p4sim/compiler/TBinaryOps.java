package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.LExpr;

/** Plain-closure forms of {@link TBinary}'s operators, for when specialisation is off. */
final class TBinaryOps {
    private TBinaryOps() { }

    static LExpr closure(int op, LExpr l, LExpr r, long mask) {
        return switch (op) {
            case TBinary.ADD -> f -> (l.eval(f) + r.eval(f)) & mask;
            case TBinary.SUB -> f -> (l.eval(f) - r.eval(f)) & mask;
            case TBinary.MUL -> f -> (l.eval(f) * r.eval(f)) & mask;
            case TBinary.AND -> f -> l.eval(f) & r.eval(f);
            case TBinary.OR -> f -> l.eval(f) | r.eval(f);
            case TBinary.XOR -> f -> l.eval(f) ^ r.eval(f);
            case TBinary.EQ -> f -> l.eval(f) == r.eval(f) ? 1 : 0;
            case TBinary.NE -> f -> l.eval(f) != r.eval(f) ? 1 : 0;
            case TBinary.ULT -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) < 0 ? 1 : 0;
            case TBinary.UGT -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) > 0 ? 1 : 0;
            case TBinary.ULE -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) <= 0 ? 1 : 0;
            case TBinary.UGE -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) >= 0 ? 1 : 0;
            case TBinary.LAND -> f -> l.eval(f) != 0 ? r.eval(f) : 0;
            case TBinary.LOR -> f -> l.eval(f) != 0 ? 1 : r.eval(f);
            default -> throw new IllegalArgumentException("operator code " + op);
        };
    }
}
