package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Ast.*;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.BitIO;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;
import dev.innet.p4sim.runtime.WExpr;
import dev.innet.p4sim.runtime.Wide;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

/**
 * Compiles checked expressions to closures: {@link LExpr} for values of at most 64 bits (bool as 0/1,
 * enum and error as their encoding), {@link WExpr} for wider bit strings, and {@link Place}s for
 * values that live in the frame. Constant subexpressions are folded at compile time.
 */
final class ExprCompiler {
    private final CompileContext cx;
    CallCompiler calls;

    ExprCompiler(CompileContext cx) {
        this.cx = cx;
    }

    // ---------------------------------------------------------------- constants

    BigInteger constant(Expr e) {
        if (e.type instanceof Type.Bits || e.type instanceof Type.Bool || e.type instanceof Type.InfInt
                || e.type instanceof Type.Enum) {
            return cx.constEval.tryEval(e);
        }
        return null;
    }

    /** The bits stored for a constant: two's complement masked to the width. */
    static long[] words(BigInteger v, int width) {
        int n = Wide.words(width);
        long[] w = new long[n];
        BigInteger u = v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(width)) : v;
        for (int i = 0; i < n; i++) {
            w[i] = u.shiftRight(64 * i).longValue();
        }
        Wide.maskTop(w, 0, width);
        return w;
    }

    static int width(Type t) {
        return switch (t) {
            case Type.Bits b -> b.width();
            case Type.Bool b -> 1;
            case Type.Enum e -> e.underlying() != null ? e.underlying().width() : 32;
            default -> throw new IllegalStateException("no width for " + t);
        };
    }

    // ---------------------------------------------------------------- places

    Place place(Expr e) {
        switch (e) {
            case Name n -> {
                Integer base = cx.storage.get(n.decl);
                if (base == null) {
                    throw new CompileError(n.pos, "'" + n.name + "' has no storage (internal: not a variable)");
                }
                return new Place(base, null, n.type);
            }
            case Member m -> {
                Place t = place(m.target);
                if (t.type() instanceof Type.Stack st) {
                    return stackMember(t, st, m);
                }
                return t.field(m.member);
            }
            case Index ix when ix.target.type instanceof Type.Tuple tu -> {
                int i = constant(ix.index).intValue();
                return place(ix.target).withOffset(Layout.tupleOffset(tu, i), null, tu.elements().get(i));
            }
            case Index ix -> {
                Place t = place(ix.target);
                Type.Stack st = (Type.Stack) t.type();
                int elem = Layout.slots(st.element());
                BigInteger c = constant(ix.index);
                if (c != null) {
                    return t.withOffset(1 + c.intValue() * elem, null, st.element());
                }
                LExpr idx = narrow(ix.index);
                int size = st.size();
                return t.withOffset(1, f -> {
                    long i = idx.eval(f);
                    return (i >= 0 && i < size ? i : size) * elem;
                }, st.element());
            }
            case Call c when c.target instanceof dev.innet.p4sim.frontend.CallTarget.FunctionCall fc -> {
                return calls.functionResult(c, fc.function());
            }
            case Call c when c.type instanceof Type.Header || c.type instanceof Type.Struct -> {
                return calls.lookaheadHeader(c, c.type);
            }
            case DontCare d when d.type != null && !(d.type instanceof Type.DontCare) -> {
                // '_' where storage is written (an out argument such as extract<H>(_)): a scratch
                // temporary of the argument's type that nothing reads (P4-16 8.15)
                return new Place(cx.layout.alloc(d.type), null, d.type);
            }
            default -> throw new CompileError(e.pos, "expression does not denote storage");
        }
    }

    /** {@code s.next} / {@code s.last}: the element at nextIndex / nextIndex-1, or the scratch element if out of range. */
    private Place stackMember(Place t, Type.Stack st, Member m) {
        int elem = Layout.slots(st.element());
        int size = st.size();
        Place idxPlace = t;
        int delta = m.member.equals("next") ? 0 : -1;
        if (!m.member.equals("next") && !m.member.equals("last")) {
            throw new CompileError(m.pos, "header stack member '" + m.member + "' is not storage");
        }
        return t.withOffset(1, f -> {
            long i = f.s[idxPlace.slot(f)] + delta;
            return (i >= 0 && i < size ? i : size) * elem;
        }, st.element());
    }

    // ---------------------------------------------------------------- narrow values

    LExpr narrow(Expr e) {
        BigInteger c = constant(e);
        if (c != null) {
            long v = words(c, e.type instanceof Type.InfInt ? 64 : width(e.type))[0];
            return f -> v;
        }
        switch (e) {
            case Name n -> {
                return read(place(n));
            }
            case Member m -> {
                if (m.target.type instanceof Type.ApplyResult) {
                    LExpr apply = narrow(m.target);
                    return m.member.equals("hit") ? f -> apply.eval(f) & 1 : f -> (apply.eval(f) & 1) ^ 1;
                }
                if (m.target.type instanceof Type.Stack st) {
                    Place sp = place(m.target);
                    int size = st.size();
                    return switch (m.member) {
                        case "nextIndex" -> read(sp);
                        case "lastIndex" -> {
                            LExpr ni = read(sp);
                            yield f -> (ni.eval(f) - 1) & 0xFFFFFFFFL;
                        }
                        case "size" -> f -> size;
                        default -> read(place(m));
                    };
                }
                return read(place(m));
            }
            case Index ix -> {
                return read(place(ix)); // a tuple element
            }
            case Slice s -> {
                int lo = s.loBit;
                int w = s.hiBit - s.loBit + 1;
                long mask = BitIO.mask(w);
                if (Layout.isWide(s.target.type)) {
                    WExpr t = wide(s.target);
                    int n = Wide.words(width(s.target.type));
                    int tmp = cx.layout.allocRaw(n);
                    return f -> {
                        t.eval(f, f.s, tmp);
                        return Wide.bits(f.s, tmp, n, lo, w);
                    };
                }
                LExpr t = narrow(s.target);
                return f -> (t.eval(f) >>> lo) & mask;
            }
            case Unary u -> {
                return unary(u);
            }
            case Binary b -> {
                return binary(b);
            }
            case Conditional c2 -> {
                LExpr k = narrow(c2.cond);
                LExpr a = narrow(c2.then);
                LExpr b = narrow(c2.otherwise);
                return f -> k.eval(f) != 0 ? a.eval(f) : b.eval(f);
            }
            case Cast c2 -> {
                return cast(c2);
            }
            case Call call -> {
                return calls.narrowCall(call);
            }
            default -> throw CompileError.unsupported(e.pos, "expression " + e.getClass().getSimpleName() + " of type " + e.type);
        }
    }

    /** The slot of a narrow value stored at a static place (variable, field), or -1. */
    int staticSlot(Expr e) {
        if (!(e instanceof Name || e instanceof Member) || !Layout.isNarrow(e.type)) {
            return -1;
        }
        if (e instanceof Member m && (m.target.type instanceof Type.ApplyResult || m.target.type instanceof Type.Stack
                || m.target.type instanceof Type.TypeName)) {
            return -1;
        }
        if (e instanceof Name n && !cx.storage.containsKey(n.decl)) {
            return -1;
        }
        Place p = place(e);
        return p.isStatic() ? p.base() : -1;
    }

    /** Like {@link #staticSlot}, also seeing through casts that widen an unsigned value (no bits change). */
    int staticSlotThroughWidening(Expr e) {
        if (e instanceof Cast c && c.operand.type instanceof Type.Bits from && !from.signed()
                && c.type instanceof Type.Bits to && to.width() >= from.width() && to.width() <= 64) {
            return staticSlotThroughWidening(c.operand);
        }
        return staticSlot(e);
    }

    LExpr read(Place p) {
        if (p.isStatic()) {
            int k = p.base();
            return f -> f.s[k];
        }
        return f -> f.s[p.slot(f)];
    }

    private LExpr unary(Unary u) {
        LExpr a = narrow(u.operand);
        switch (u.op) {
            case "!" -> {
                return f -> a.eval(f) ^ 1;
            }
            case "~" -> {
                long mask = BitIO.mask(width(u.type));
                return f -> ~a.eval(f) & mask;
            }
            case "-" -> {
                long mask = BitIO.mask(width(u.type));
                return f -> -a.eval(f) & mask;
            }
            default -> {
                return a;
            }
        }
    }

    private LExpr binary(Binary b) {
        Type ot = b.left.type;
        if ((b.op.equals("==") || b.op.equals("!=")) && (ot instanceof Type.Header || ot instanceof Type.Struct
                || ot instanceof Type.HeaderUnion || ot instanceof Type.Stack || ot instanceof Type.Tuple
                || isInitialiser(b.left))) {
            return aggregateEquality(b);
        }
        if (b.op.equals("&&")) {
            return cx.spec.binary(TBinary.LAND, narrow(b.left), narrow(b.right), -1L, 1);
        }
        if (b.op.equals("||")) {
            return cx.spec.binary(TBinary.LOR, narrow(b.left), narrow(b.right), -1L, 1);
        }
        if (ot instanceof Type.Varbit) {
            return varbitEquality(b);
        }
        if (Layout.isWide(ot) || (b.op.equals("++") && Layout.isWide(b.type))) {
            return wideComparison(b);
        }
        if (b.op.equals("++")) {
            LExpr l = narrow(b.left);
            LExpr r = narrow(b.right);
            int rw = width(b.right.type);
            long mask = BitIO.mask(width(b.type));
            return f -> ((l.eval(f) << rw) | r.eval(f)) & mask;
        }
        boolean signed = ot instanceof Type.Bits bt && bt.signed();
        LExpr fast = fastBinary(b, signed);
        if (fast != null) {
            return fast;
        }
        LExpr l = narrow(b.left);
        LExpr r = narrow(b.right);
        int w = ot instanceof Type.InfInt ? 64 : width(ot);
        long mask = BitIO.mask(w);
        switch (b.op) {
            case "==":
                return cx.spec.binary(TBinary.EQ, l, r, -1L, 1);
            case "!=":
                return cx.spec.binary(TBinary.NE, l, r, -1L, 1);
            case "<", ">", "<=", ">=": {
                if (signed) {
                    return comparison(b.op, f -> BitIO.signExtend(l.eval(f), w), f -> BitIO.signExtend(r.eval(f), w), false);
                }
                int cmp = switch (b.op) {
                    case "<" -> TBinary.ULT;
                    case ">" -> TBinary.UGT;
                    case "<=" -> TBinary.ULE;
                    default -> TBinary.UGE;
                };
                return cx.spec.binary(cmp, l, r, -1L, 1);
            }
            default:
                break;
        }
        int rw = width(b.type);
        long rmask = BitIO.mask(rw);
        int code = switch (b.op) {
            case "+" -> TBinary.ADD;
            case "-" -> TBinary.SUB;
            case "*" -> TBinary.MUL;
            case "&" -> TBinary.AND;
            case "|" -> TBinary.OR;
            case "^" -> TBinary.XOR;
            default -> -1;
        };
        if (code >= 0) {
            return cx.spec.binary(code, l, r, rmask, rw);
        }
        switch (b.op) {
            case "+":
                return f -> (l.eval(f) + r.eval(f)) & rmask;
            case "-":
                return f -> (l.eval(f) - r.eval(f)) & rmask;
            case "*":
                return f -> (l.eval(f) * r.eval(f)) & rmask;
            case "/", "%": {
                BigInteger divisor = constant(b.right);
                if (divisor != null) {
                    // a constant divisor is never zero here (the type checker refuses 0)
                    return b.op.equals("/") ? f -> Long.divideUnsigned(l.eval(f), r.eval(f)) & rmask
                            : f -> Long.remainderUnsigned(l.eval(f), r.eval(f)) & rmask;
                }
                // by a run-time zero bmv2's arithmetic fails and simple_switch dies; this switch stops too
                String zero = "division by zero: " + ExprText.of(b) + ", file " + b.pos.file() + ", line " + b.pos.line();
                boolean div = b.op.equals("/");
                return f -> {
                    long d = r.eval(f);
                    if (d == 0) {
                        throw new dev.innet.p4sim.runtime.P4AbortException(zero);
                    }
                    return (div ? Long.divideUnsigned(l.eval(f), d) : Long.remainderUnsigned(l.eval(f), d)) & rmask;
                };
            }
            case "&":
                return f -> l.eval(f) & r.eval(f);
            case "|":
                return f -> l.eval(f) | r.eval(f);
            case "^":
                return f -> l.eval(f) ^ r.eval(f);
            case "<<":
                return f -> {
                    long amt = r.eval(f);
                    return Long.compareUnsigned(amt, rw) >= 0 ? 0 : (l.eval(f) << amt) & rmask;
                };
            case ">>":
                if (signed) {
                    return f -> {
                        long v = BitIO.signExtend(l.eval(f), rw);
                        long amt = r.eval(f);
                        return (Long.compareUnsigned(amt, rw) >= 0 ? (v < 0 ? -1L : 0) : v >> amt) & rmask;
                    };
                }
                return f -> {
                    long amt = r.eval(f);
                    return Long.compareUnsigned(amt, rw) >= 0 ? 0 : l.eval(f) >>> amt;
                };
            case "|+|":
                return signed ? saturatingSigned(l, r, rw, true) : f -> {
                    long x = l.eval(f);
                    long s = x + r.eval(f);
                    if (rw == 64) {
                        return Long.compareUnsigned(s, x) < 0 ? -1L : s;
                    }
                    return s > rmask ? rmask : s;
                };
            case "|-|":
                return signed ? saturatingSigned(l, r, rw, false) : f -> {
                    long x = l.eval(f);
                    long y = r.eval(f);
                    return Long.compareUnsigned(x, y) >= 0 ? x - y : 0;
                };
            default:
                throw CompileError.unsupported(b.pos, "operator " + b.op);
        }
    }

    /** Common shapes with a static slot on the left and a constant on the right, as single closures. */
    private LExpr fastBinary(Binary b, boolean signed) {
        BigInteger rc = constant(b.right);
        int ls = staticSlot(b.left);
        if (rc == null || signed || b.left.type instanceof Type.InfInt) {
            return null;
        }
        long c = words(rc, width(b.left.type))[0];
        long mask = BitIO.mask(width(b.left.type));
        if (ls >= 0) {
            return switch (b.op) {
                case "==" -> f -> f.s[ls] == c ? 1 : 0;
                case "!=" -> f -> f.s[ls] != c ? 1 : 0;
                case "&" -> f -> f.s[ls] & c;
                case "+" -> f -> (f.s[ls] + c) & mask;
                case "<" -> f -> Long.compareUnsigned(f.s[ls], c) < 0 ? 1 : 0;
                case ">" -> f -> Long.compareUnsigned(f.s[ls], c) > 0 ? 1 : 0;
                default -> null;
            };
        }
        LExpr l = narrow(b.left);
        return switch (b.op) {
            case "==" -> f -> l.eval(f) == c ? 1 : 0;
            case "!=" -> f -> l.eval(f) != c ? 1 : 0;
            case "&" -> f -> l.eval(f) & c;
            case "+" -> f -> (l.eval(f) + c) & mask;
            default -> null;
        };
    }

    private static LExpr saturatingSigned(LExpr l, LExpr r, int w, boolean add) {
        long max = w == 64 ? Long.MAX_VALUE : (1L << (w - 1)) - 1;
        long min = w == 64 ? Long.MIN_VALUE : -(1L << (w - 1));
        long mask = BitIO.mask(w);
        return f -> {
            long x = BitIO.signExtend(l.eval(f), w);
            long y = BitIO.signExtend(r.eval(f), w);
            long s;
            try {
                s = add ? Math.addExact(x, y) : Math.subtractExact(x, y);
            } catch (ArithmeticException overflow) {
                s = (add ? y > 0 : y < 0) ? max : min;
            }
            return Math.max(min, Math.min(max, s)) & mask;
        };
    }

    private static LExpr comparison(String op, LExpr l, LExpr r, boolean unsigned) {
        if (unsigned) {
            return switch (op) {
                case "<" -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) < 0 ? 1 : 0;
                case ">" -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) > 0 ? 1 : 0;
                case "<=" -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) <= 0 ? 1 : 0;
                default -> f -> Long.compareUnsigned(l.eval(f), r.eval(f)) >= 0 ? 1 : 0;
            };
        }
        return switch (op) {
            case "<" -> f -> l.eval(f) < r.eval(f) ? 1 : 0;
            case ">" -> f -> l.eval(f) > r.eval(f) ? 1 : 0;
            case "<=" -> f -> l.eval(f) <= r.eval(f) ? 1 : 0;
            default -> f -> l.eval(f) >= r.eval(f) ? 1 : 0;
        };
    }

    /** {@code ==}/{@code !=} of varbit values: equal when their lengths and their bits are. */
    private LExpr varbitEquality(Binary b) {
        Place l = place(b.left);
        Place r = place(b.right);
        int n = Layout.slots(b.left.type);
        boolean eq = b.op.equals("==");
        return f -> Wide.equal(f.s, l.slot(f), f.s, r.slot(f), n) == eq ? 1 : 0;
    }

    /** Equality of two values of one type stored at slots {@code a} and {@code b} of the frame. */
    @FunctionalInterface
    interface SlotEquality {
        boolean equal(long[] s, int a, int b);
    }

    /**
     * {@code ==}/{@code !=} of headers, structs, header unions, stacks and tuples, as P4-16 defines
     * them: two headers are equal when both are invalid, or both valid with equal fields; the others
     * when all their parts are equal (a stack's elements, not its nextIndex). An initialiser on
     * either side is built in scratch slots first.
     */
    private LExpr aggregateEquality(Binary b) {
        Expr left = b.left;
        Expr right = b.right;
        if (isInitialiser(left)) {
            left = b.right; // equality is symmetric: the initialiser goes to the right
            right = b.left;
        }
        Place l = place(left);
        Place r;
        dev.innet.p4sim.runtime.Exec build;
        if (isInitialiser(right)) {
            r = new Place(cx.layout.alloc(left.type), null, left.type);
            build = calls.assign(r, right);
        } else {
            r = place(right);
            build = null;
        }
        SlotEquality eq = slotEquality(left.type);
        boolean negate = b.op.equals("!=");
        if (build == null) {
            return f -> eq.equal(f.s, l.slot(f), r.slot(f)) != negate ? 1 : 0;
        }
        return f -> {
            build.run(f);
            return eq.equal(f.s, l.slot(f), r.slot(f)) != negate ? 1 : 0;
        };
    }

    private static boolean isInitialiser(Expr e) {
        return e instanceof ListExpr || e instanceof StructInit || e instanceof InvalidHeader;
    }

    static SlotEquality slotEquality(Type t) {
        switch (t) {
            case Type.Header h -> {
                SlotEquality fields = fieldsEquality(h.fields(), t);
                // slot 0 is the validity: invalid headers are equal whatever their fields hold
                return (s, a, b) -> s[a] == s[b] && (s[a] == 0 || fields.equal(s, a, b));
            }
            case Type.Struct st -> {
                return fieldsEquality(st.fields(), t);
            }
            case Type.HeaderUnion u -> {
                // member by member: at most one is valid on each side, and an invalid member equals an invalid one
                return fieldsEquality(u.fields(), t);
            }
            case Type.Stack st -> {
                SlotEquality elem = slotEquality(st.element());
                int es = Layout.slots(st.element());
                int size = st.size();
                return (s, a, b) -> {
                    for (int i = 0; i < size; i++) {
                        if (!elem.equal(s, a + 1 + i * es, b + 1 + i * es)) {
                            return false;
                        }
                    }
                    return true;
                };
            }
            case Type.Tuple tu -> {
                int k = tu.elements().size();
                SlotEquality[] parts = new SlotEquality[k];
                int[] offsets = new int[k];
                for (int i = 0; i < k; i++) {
                    parts[i] = slotEquality(tu.elements().get(i));
                    offsets[i] = Layout.tupleOffset(tu, i);
                }
                return allParts(parts, offsets);
            }
            default -> {
                // scalars, wide values, varbits (length and words): their slots
                int n = Layout.slots(t);
                return n == 1 ? (s, a, b) -> s[a] == s[b] : (s, a, b) -> Arrays.equals(s, a, a + n, s, b, b + n);
            }
        }
    }

    private static SlotEquality fieldsEquality(List<Type.FieldT> fields, Type owner) {
        SlotEquality[] parts = new SlotEquality[fields.size()];
        int[] offsets = new int[fields.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = slotEquality(fields.get(i).type());
            offsets[i] = Layout.fieldOffset(owner, fields.get(i).name());
        }
        return allParts(parts, offsets);
    }

    /** Every part equal; each part's offset is relative to the value's first slot. */
    private static SlotEquality allParts(SlotEquality[] parts, int[] offsets) {
        return (s, a, b) -> {
            for (int i = 0; i < parts.length; i++) {
                if (!parts[i].equal(s, a + offsets[i], b + offsets[i])) {
                    return false;
                }
            }
            return true;
        };
    }

    /** Comparisons whose operands are wider than 64 bits. */
    private LExpr wideComparison(Binary b) {
        int w = width(b.left.type);
        int n = Wide.words(w);
        WExpr l = wide(b.left);
        WExpr r = wide(b.right);
        int tl = cx.layout.allocRaw(n);
        int tr = cx.layout.allocRaw(n);
        if (b.left.type instanceof Type.Bits bt && bt.signed() && !b.op.equals("==") && !b.op.equals("!=")) {
            throw CompileError.unsupported(b.pos, "ordering comparison of signed values wider than 64 bits");
        }
        return switch (b.op) {
            case "==" -> f -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                return Wide.equal(f.s, tl, f.s, tr, n) ? 1 : 0;
            };
            case "!=" -> f -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                return Wide.equal(f.s, tl, f.s, tr, n) ? 0 : 1;
            };
            case "<", ">", "<=", ">=" -> {
                String op = b.op;
                yield f -> {
                    l.eval(f, f.s, tl);
                    r.eval(f, f.s, tr);
                    int c = Wide.compareUnsigned(f.s, tl, f.s, tr, n);
                    boolean res = switch (op) {
                        case "<" -> c < 0;
                        case ">" -> c > 0;
                        case "<=" -> c <= 0;
                        default -> c >= 0;
                    };
                    return res ? 1 : 0;
                };
            }
            default -> throw CompileError.unsupported(b.pos, "operator " + b.op + " producing a narrow value from wide operands");
        };
    }

    private LExpr cast(Cast c) {
        Type from = c.operand.type;
        Type to = c.type;
        int tw = width(to);
        long mask = BitIO.mask(tw);
        if (Layout.isWide(from)) {
            WExpr src = wide(c.operand);
            int tmp = cx.layout.allocRaw(Wide.words(width(from)));
            return f -> {
                src.eval(f, f.s, tmp);
                return f.s[tmp] & mask;
            };
        }
        LExpr v = narrow(c.operand);
        if (from instanceof Type.Bits fb && fb.signed() && tw > fb.width()) {
            int fw = fb.width();
            return f -> BitIO.signExtend(v.eval(f), fw) & mask;
        }
        if (to instanceof Type.Bool || (from instanceof Type.Bits fu && !fu.signed() && fu.width() <= tw)
                || (from instanceof Type.Bool && tw >= 1)) {
            return v; // widening an unsigned value (or bool <-> bit<1>) leaves its bits as they are
        }
        return f -> v.eval(f) & mask;
    }

    // ---------------------------------------------------------------- wide values

    WExpr wide(Expr e) {
        int w = width(e.type);
        int n = Wide.words(w);
        BigInteger c = constant(e);
        if (c != null) {
            long[] v = words(c, w);
            return (f, d, o) -> System.arraycopy(v, 0, d, o, n);
        }
        switch (e) {
            case Name nm -> {
                return copyFrom(place(nm), n);
            }
            case Member m -> {
                return copyFrom(place(m), n);
            }
            case Index ix -> {
                return copyFrom(place(ix), n);
            }
            case Slice s -> {
                WExpr t = wide(s.target);
                int tn = Wide.words(width(s.target.type));
                int tmp = cx.layout.allocRaw(tn);
                int lo = s.loBit;
                return (f, d, o) -> {
                    t.eval(f, f.s, tmp);
                    Wide.shr(f.s, tmp, lo, f.s, tmp, tn);
                    System.arraycopy(f.s, tmp, d, o, n);
                    Wide.maskTop(d, o, w);
                };
            }
            case Cast cst -> {
                Type from = cst.operand.type;
                if (Layout.isWide(from)) {
                    WExpr src = wide(cst.operand);
                    int fn = Wide.words(width(from));
                    int tmp = cx.layout.allocRaw(fn);
                    boolean signed = from instanceof Type.Bits fb && fb.signed();
                    int fw = width(from);
                    return (f, d, o) -> {
                        src.eval(f, f.s, tmp);
                        boolean neg = signed && Wide.bits(f.s, tmp, fn, fw - 1, 1) != 0;
                        for (int i = 0; i < n; i++) {
                            d[o + i] = i < fn ? f.s[tmp + i] : (neg ? -1L : 0);
                        }
                        if (neg && fw % 64 != 0 && n >= fn) {
                            d[o + fn - 1] |= ~BitIO.mask(fw % 64);
                        }
                        Wide.maskTop(d, o, w);
                    };
                }
                LExpr v = narrow(cst.operand);
                boolean signed = from instanceof Type.Bits fb && fb.signed();
                int fw = width(from);
                return (f, d, o) -> {
                    long x = v.eval(f);
                    if (signed) {
                        x = BitIO.signExtend(x, fw);
                    }
                    d[o] = x;
                    long fill = signed && x < 0 ? -1L : 0;
                    for (int i = 1; i < n; i++) {
                        d[o + i] = fill;
                    }
                    Wide.maskTop(d, o, w);
                };
            }
            case Binary b -> {
                return wideBinary(b, w, n);
            }
            case Unary u -> {
                WExpr a = wide(u.operand);
                if (u.op.equals("~")) {
                    return (f, d, o) -> {
                        a.eval(f, d, o);
                        for (int i = 0; i < n; i++) {
                            d[o + i] = ~d[o + i];
                        }
                        Wide.maskTop(d, o, w);
                    };
                }
                if (u.op.equals("-")) {
                    int zero = cx.layout.allocRaw(n);
                    int tmp = cx.layout.allocRaw(n);
                    return (f, d, o) -> {
                        a.eval(f, f.s, tmp);
                        java.util.Arrays.fill(f.s, zero, zero + n, 0L);
                        Wide.sub(f.s, zero, f.s, tmp, d, o, n);
                        Wide.maskTop(d, o, w);
                    };
                }
                return a;
            }
            case Conditional c2 -> {
                LExpr k = narrow(c2.cond);
                WExpr a = wide(c2.then);
                WExpr b = wide(c2.otherwise);
                return (f, d, o) -> {
                    if (k.eval(f) != 0) {
                        a.eval(f, d, o);
                    } else {
                        b.eval(f, d, o);
                    }
                };
            }
            case Call call -> {
                return calls.wideCall(call);
            }
            default -> throw CompileError.unsupported(e.pos, "expression " + e.getClass().getSimpleName() + " of type " + e.type);
        }
    }

    WExpr copyFrom(Place p, int n) {
        if (p.isStatic()) {
            int k = p.base();
            return (f, d, o) -> System.arraycopy(f.s, k, d, o, n);
        }
        return (f, d, o) -> System.arraycopy(f.s, p.slot(f), d, o, n);
    }

    /** Any bit-string expression as a wide value (narrow ones are widened into one word). */
    WExpr asWide(Expr e) {
        if (Layout.isWide(e.type)) {
            return wide(e);
        }
        LExpr v = narrow(e);
        return (f, d, o) -> d[o] = v.eval(f);
    }

    private WExpr wideBinary(Binary b, int w, int n) {
        if (b.op.equals("++")) {
            int lw = width(b.left.type);
            int rw = width(b.right.type);
            int ln = Wide.words(lw);
            int rn = Wide.words(rw);
            WExpr l = asWide(b.left);
            WExpr r = asWide(b.right);
            int tl = cx.layout.allocRaw(ln);
            int tr = cx.layout.allocRaw(rn);
            return (f, d, o) -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                java.util.Arrays.fill(d, o, o + n, 0L);
                for (int i = 0; i < rn; i++) {
                    int bits = Math.min(64, rw - 64 * i);
                    Wide.orBits(d, o, n, 64 * i, bits, f.s[tr + i]);
                }
                for (int i = 0; i < ln; i++) {
                    int bits = Math.min(64, lw - 64 * i);
                    Wide.orBits(d, o, n, rw + 64 * i, bits, f.s[tl + i]);
                }
            };
        }
        if (b.op.equals("<<") || b.op.equals(">>")) {
            WExpr l = wide(b.left);
            LExpr r = narrow(b.right);
            boolean left = b.op.equals("<<");
            if (!left && b.type instanceof Type.Bits bt && bt.signed()) {
                throw CompileError.unsupported(b.pos, "arithmetic shift of a signed value wider than 64 bits");
            }
            return (f, d, o) -> {
                long amt = r.eval(f);
                l.eval(f, d, o);
                if (Long.compareUnsigned(amt, w) >= 0) {
                    java.util.Arrays.fill(d, o, o + n, 0L);
                    return;
                }
                if (left) {
                    Wide.shl(d, o, (int) amt, d, o, n);
                    Wide.maskTop(d, o, w);
                } else {
                    Wide.shr(d, o, (int) amt, d, o, n);
                }
            };
        }
        WExpr l = wide(b.left);
        WExpr r = wide(b.right);
        int tl = cx.layout.allocRaw(n);
        int tr = cx.layout.allocRaw(n);
        return switch (b.op) {
            case "&" -> (f, d, o) -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                for (int i = 0; i < n; i++) {
                    d[o + i] = f.s[tl + i] & f.s[tr + i];
                }
            };
            case "|" -> (f, d, o) -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                for (int i = 0; i < n; i++) {
                    d[o + i] = f.s[tl + i] | f.s[tr + i];
                }
            };
            case "^" -> (f, d, o) -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                for (int i = 0; i < n; i++) {
                    d[o + i] = f.s[tl + i] ^ f.s[tr + i];
                }
            };
            case "+" -> (f, d, o) -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                Wide.add(f.s, tl, f.s, tr, d, o, n);
                Wide.maskTop(d, o, w);
            };
            case "-" -> (f, d, o) -> {
                l.eval(f, f.s, tl);
                r.eval(f, f.s, tr);
                Wide.sub(f.s, tl, f.s, tr, d, o, n);
                Wide.maskTop(d, o, w);
            };
            default -> throw CompileError.unsupported(b.pos, "operator '" + b.op + "' on values wider than 64 bits");
        };
    }

    /** A closure that stores a narrow value into a place, masked to the place's width. */
    Storer storer(Place p) {
        long mask = p.type() instanceof Type.Bits b ? BitIO.mask(b.width()) : -1L;
        if (p.isStatic()) {
            int k = p.base();
            return (f, v) -> f.s[k] = v & mask;
        }
        return (f, v) -> f.s[p.slot(f)] = v & mask;
    }

    @FunctionalInterface
    interface Storer {
        void store(Frame f, long v);
    }
}
