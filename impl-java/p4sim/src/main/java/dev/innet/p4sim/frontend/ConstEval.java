package dev.innet.p4sim.frontend;

import dev.innet.p4sim.frontend.Ast.*;
import java.math.BigInteger;
import java.util.Map;

/**
 * Evaluates compile-time constant expressions of a checked tree. Values are normalised to the node's
 * type: {@code bit<N>} modulo 2^N, {@code int<N>} into the signed range, {@code int} unbounded, bool 0/1,
 * enum/error members to their numeric encoding ({@link #enumValue}).
 */
public final class ConstEval {
    private final Map<Object, BigInteger> constValues;

    public ConstEval(Map<Object, BigInteger> constValues) {
        this.constValues = constValues;
    }

    /** The value of {@code e}, or null if it is not a compile-time constant. */
    public BigInteger tryEval(Expr e) {
        BigInteger v = raw(e);
        return v == null ? null : normalize(v, e.type);
    }

    public static BigInteger normalize(BigInteger v, Type t) {
        if (t instanceof Type.Bits b) {
            BigInteger mod = BigInteger.ONE.shiftLeft(b.width());
            BigInteger u = v.mod(mod);
            if (b.signed() && u.testBit(b.width() - 1)) {
                return u.subtract(mod);
            }
            return u;
        }
        if (t instanceof Type.Enum en && en.underlying() != null) {
            return normalize(v, en.underlying());
        }
        return v;
    }

    private BigInteger raw(Expr e) {
        if (e instanceof IntLit l) {
            return l.value;
        }
        if (e instanceof BoolLit b) {
            return b.value ? BigInteger.ONE : BigInteger.ZERO;
        }
        if (e instanceof Name n) {
            return n.decl == null ? null : constValues.get(n.decl);
        }
        if (e instanceof Member m && m.target.type instanceof Type.TypeName tn && tn.denoted() instanceof Type.Enum en) {
            BigInteger s = constValues.get(en.name() + "." + m.member);
            return s != null ? s : BigInteger.valueOf(en.members().indexOf(m.member));
        }
        if (e instanceof Member m && m.target.type instanceof Type.Stack st && m.member.equals("size")) {
            return BigInteger.valueOf(st.size());
        }
        if (e instanceof Cast c) {
            BigInteger v = tryEval(c.operand);
            if (v == null) {
                return null;
            }
            return v; // normalised to the cast's type by tryEval
        }
        if (e instanceof Unary u) {
            BigInteger v = tryEval(u.operand);
            if (v == null) {
                return null;
            }
            return switch (u.op) {
                case "-" -> v.negate();
                case "+" -> v;
                case "~" -> v.not();
                case "!" -> v.signum() == 0 ? BigInteger.ONE : BigInteger.ZERO;
                default -> null;
            };
        }
        if (e instanceof Binary b) {
            BigInteger l = tryEval(b.left);
            BigInteger r = tryEval(b.right);
            if (l == null || r == null) {
                return null;
            }
            return switch (b.op) {
                case "+" -> l.add(r);
                case "-" -> l.subtract(r);
                case "*" -> l.multiply(r);
                case "/" -> r.signum() == 0 ? null : l.divide(r);
                case "%" -> r.signum() == 0 ? null : l.mod(r.abs());
                case "&" -> l.and(r);
                case "|" -> l.or(r);
                case "^" -> l.xor(r);
                case "<<" -> l.shiftLeft(r.min(BigInteger.valueOf(4096)).intValue());
                case ">>" -> l.shiftRight(r.min(BigInteger.valueOf(4096)).intValue());
                case "++" -> concat(l, r, b);
                case "==" -> bool(l.equals(r));
                case "!=" -> bool(!l.equals(r));
                case "<" -> bool(l.compareTo(r) < 0);
                case ">" -> bool(l.compareTo(r) > 0);
                case "<=" -> bool(l.compareTo(r) <= 0);
                case ">=" -> bool(l.compareTo(r) >= 0);
                case "&&" -> bool(l.signum() != 0 && r.signum() != 0);
                case "||" -> bool(l.signum() != 0 || r.signum() != 0);
                case "|+|" -> saturate(l.add(r), b.type);
                case "|-|" -> saturate(l.subtract(r), b.type);
                default -> null;
            };
        }
        if (e instanceof Conditional c) {
            BigInteger k = tryEval(c.cond);
            if (k == null) {
                return null;
            }
            return k.signum() != 0 ? tryEval(c.then) : tryEval(c.otherwise);
        }
        if (e instanceof Slice s) {
            BigInteger v = tryEval(s.target);
            if (v == null) {
                return null;
            }
            int w = s.hiBit - s.loBit + 1;
            return v.shiftRight(s.loBit).and(BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE));
        }
        return null;
    }

    private static BigInteger concat(BigInteger l, BigInteger r, Binary b) {
        int rw = b.right.type.bitWidth();
        BigInteger rMasked = r.and(BigInteger.ONE.shiftLeft(rw).subtract(BigInteger.ONE));
        int lw = b.left.type.bitWidth();
        BigInteger lMasked = l.and(BigInteger.ONE.shiftLeft(lw).subtract(BigInteger.ONE));
        return lMasked.shiftLeft(rw).or(rMasked);
    }

    private static BigInteger saturate(BigInteger v, Type t) {
        if (!(t instanceof Type.Bits b)) {
            return v;
        }
        BigInteger max = b.signed() ? BigInteger.ONE.shiftLeft(b.width() - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(b.width()).subtract(BigInteger.ONE);
        BigInteger min = b.signed() ? BigInteger.ONE.shiftLeft(b.width() - 1).negate() : BigInteger.ZERO;
        return v.max(min).min(max);
    }

    private static BigInteger bool(boolean b) {
        return b ? BigInteger.ONE : BigInteger.ZERO;
    }
}
