package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;
import java.lang.invoke.MethodHandles;

/**
 * Template for {@link Specializer#binary}. OP is a constant in each hidden class, so the JIT keeps
 * only the selected operator's code.
 */
final class TBinary implements LExpr {
    static final int ADD = 0;
    static final int SUB = 1;
    static final int MUL = 2;
    static final int AND = 3;
    static final int OR = 4;
    static final int XOR = 5;
    static final int EQ = 6;
    static final int NE = 7;
    static final int ULT = 8;
    static final int UGT = 9;
    static final int ULE = 10;
    static final int UGE = 11;
    static final int LAND = 12;
    static final int LOR = 13;

    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int OP = (Integer) D[0];
    private static final LExpr L = (LExpr) D[1];
    private static final LExpr R = (LExpr) D[2];
    private static final long MASK = (Long) D[3];

    TBinary() { }

    @Override
    public long eval(Frame f) {
        switch (OP) {
            case LAND:
                return L.eval(f) != 0 ? R.eval(f) : 0;
            case LOR:
                return L.eval(f) != 0 ? 1 : R.eval(f);
            default:
                break;
        }
        long a = L.eval(f);
        long b = R.eval(f);
        switch (OP) {
            case ADD:
                return (a + b) & MASK;
            case SUB:
                return (a - b) & MASK;
            case MUL:
                return (a * b) & MASK;
            case AND:
                return a & b;
            case OR:
                return a | b;
            case XOR:
                return a ^ b;
            case EQ:
                return a == b ? 1 : 0;
            case NE:
                return a != b ? 1 : 0;
            case ULT:
                return Long.compareUnsigned(a, b) < 0 ? 1 : 0;
            case UGT:
                return Long.compareUnsigned(a, b) > 0 ? 1 : 0;
            case ULE:
                return Long.compareUnsigned(a, b) <= 0 ? 1 : 0;
            default:
                return Long.compareUnsigned(a, b) >= 0 ? 1 : 0;
        }
    }
}
