package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Ast.*;
import dev.innet.p4sim.frontend.CallTarget;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.ArchState;
import dev.innet.p4sim.runtime.BitIO;
import dev.innet.p4sim.runtime.CounterArray;
import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.CustomCrc;
import dev.innet.p4sim.runtime.Hashes;
import dev.innet.p4sim.runtime.HeaderCodec;
import dev.innet.p4sim.runtime.LExpr;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.runtime.WExpr;
import dev.innet.p4sim.runtime.Wide;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles calls: header validity methods, stack operations, table application, action calls with
 * copy-in/copy-out, and the core and v1model externs (packet_in/out, register, counter, hash,
 * checksum, random, digest, clone, resubmit, recirculate, mark_to_drop, verify).
 */
final class CallCompiler {
    /** v1model's default drop port (simple_switch --drop-port). */
    static final int DROP_PORT = 511;

    private final CompileContext cx;
    private final ExprCompiler ex;
    private final Map<Type, HeaderCodec> codecs = new HashMap<>();

    CallCompiler(CompileContext cx, ExprCompiler ex) {
        this.cx = cx;
        this.ex = ex;
    }

    HeaderCodec codec(Type.Header h, Expr at) {
        return codecOf(h, at);
    }

    /**
     * The codec of a header or of a struct of fixed-width fields: its leaf fields in order (structs
     * nested in a header contribute their fields), one of which may be a header's varbit field.
     */
    HeaderCodec codecOf(Type t, Expr at) {
        HeaderCodec c = codecs.get(t);
        if (c != null) {
            return c;
        }
        List<int[]> leaves = new ArrayList<>(); // {slot offset, width, varbit max or -1}
        boolean header = t instanceof Type.Header;
        collectLeaves(t, header ? 1 : 0, leaves);
        if (header && Layout.paddingBits((Type.Header) t) > 0) {
            // bmv2's _padding: read from the packet and written back like a field, in the header's last slot
            leaves.add(new int[] {Layout.slots(t) - 1, Layout.paddingBits((Type.Header) t), -1});
        }
        int[] offs = new int[leaves.size()];
        int[] widths = new int[leaves.size()];
        int varbit = -1;
        int varbitMax = 0;
        for (int i = 0; i < offs.length; i++) {
            offs[i] = leaves.get(i)[0];
            widths[i] = leaves.get(i)[1];
            if (leaves.get(i)[2] >= 0) {
                varbit = i;
                varbitMax = leaves.get(i)[2];
            }
        }
        String name = header ? ((Type.Header) t).name() : ((Type.Struct) t).name();
        c = new HeaderCodec(name, offs, widths, header, varbit, varbitMax);
        if (c.bits % 8 != 0 || varbitMax % 8 != 0) {
            throw CompileError.unsupported(at.pos, (header ? "header " : "struct ") + name + " of " + c.bits
                    + (varbit >= 0 ? " bits plus a varbit<" + varbitMax + ">" : " bits")
                    + " (headers must be a whole number of bytes)");
        }
        codecs.put(t, c);
        return c;
    }

    private static void collectLeaves(Type t, int base, List<int[]> out) {
        int off = base;
        for (Type.FieldT f : Layout.fields(t)) {
            Type ft = f.type();
            if (ft instanceof Type.Struct) {
                collectLeaves(ft, off, out);
            } else if (ft instanceof Type.Varbit v) {
                out.add(new int[] {off, 0, v.max()});
            } else {
                out.add(new int[] {off, ExprCompiler.width(ft), -1});
            }
            off += Layout.slots(ft);
        }
    }

    // ---------------------------------------------------------------- value-producing calls

    LExpr narrowCall(Call c) {
        if (c.target instanceof CallTarget.FunctionCall fc) {
            Exec call = functionCall(c, fc.function());
            int ret = cx.functions.get(fc.function()).retBase();
            return f -> {
                call.run(f);
                return f.s[ret];
            };
        }
        switch (c.target) {
            case CallTarget.HeaderMethod hm when hm.method().equals("isValid") -> {
                Place p = ex.place(((Member) c.callee).target);
                if (p.type() instanceof Type.HeaderUnion u) {
                    // a union is valid when one of its members is
                    int[] offs = u.fields().stream().mapToInt(fl -> Layout.fieldOffset(u, fl.name())).toArray();
                    return f -> {
                        int base = p.slot(f);
                        for (int o : offs) {
                            if (f.s[base + o] != 0) {
                                return 1;
                            }
                        }
                        return 0;
                    };
                }
                return ex.read(p);
            }
            case CallTarget.TableApply ta -> {
                return tableApply(ta.table());
            }
            case CallTarget.ExternMethod em -> {
                Member m = (Member) c.callee;
                String ext = em.extern().name;
                if (ext.equals("register") && em.method().name.equals("read")) {
                    RegisterArray r = register(m.target);
                    LExpr idx = ex.narrow(c.args.get(0));
                    return touching(r, (LExpr) f -> r.read(idx.eval(f)));
                }
                if (ext.equals("packet_in") && em.method().name.equals("lookahead")) {
                    int w = ExprCompiler.width(c.type);
                    int err = cx.errorCode("PacketTooShort");
                    return f -> {
                        if (f.cursorBits + w > f.inLen * 8) {
                            f.parserError = err;
                            f.flow = Frame.REJECT;
                            return 0;
                        }
                        return BitIO.read(f.in, f.cursorBits, w);
                    };
                }
                throw CompileError.unsupported(c.pos, ext + "." + em.method().name + " as a value");
            }
            default -> throw CompileError.unsupported(c.pos, "call used as a value");
        }
    }

    WExpr wideCall(Call c) {
        if (c.target instanceof CallTarget.FunctionCall fc) {
            Exec call = functionCall(c, fc.function());
            int ret = cx.functions.get(fc.function()).retBase();
            int n = Layout.slots(fc.function().ret);
            return (f, d, o) -> {
                call.run(f);
                System.arraycopy(f.s, ret, d, o, n);
            };
        }
        if (c.target instanceof CallTarget.ExternMethod em) {
            Member m = (Member) c.callee;
            String ext = em.extern().name;
            if (ext.equals("register") && em.method().name.equals("read")) {
                RegisterArray r = register(m.target);
                LExpr idx = ex.narrow(c.args.get(0));
                return touching(r, (WExpr) (f, d, o) -> r.readWide(idx.eval(f), d, o));
            }
            if (ext.equals("packet_in") && em.method().name.equals("lookahead")) {
                int w = ExprCompiler.width(c.type);
                int n = Wide.words(w);
                int err = cx.errorCode("PacketTooShort");
                return (f, d, o) -> {
                    if (f.cursorBits + w > f.inLen * 8) {
                        f.parserError = err;
                        f.flow = Frame.REJECT;
                        java.util.Arrays.fill(d, o, o + n, 0L);
                        return;
                    }
                    BitIO.readWide(f.in, f.cursorBits, w, d, o);
                };
            }
        }
        throw CompileError.unsupported(c.pos, "wide call used as a value");
    }

    private LExpr tableApply(TableDecl t) {
        TableRuntime rt = cx.tables.get(t);
        if (rt == null) {
            throw new CompileError(t.pos, "internal: table " + t.name + " not compiled");
        }
        List<KeyElement> keys = Compiler.matchKeys(t);
        int n = keys.size();
        Exec[] fill = new Exec[n];
        for (int i = 0; i < n; i++) {
            Expr k = keys.get(i).expr();
            int off = rt.wordOffsets[i];
            long[] buf = rt.keyBuf;
            if (Layout.isWide(k.type)) {
                WExpr w = ex.wide(k);
                fill[i] = f -> w.eval(f, buf, off);
            } else {
                LExpr v = ex.narrow(k);
                fill[i] = f -> buf[off] = v.eval(f);
            }
        }
        int[] points = cx.tablePoints.get(rt);
        if (points != null) {
            // coverage: the result's low bit says hit or miss (TableRuntime.apply)
            dev.innet.p4sim.coverage.CoverageRecorder rec = cx.coverage;
            int hit = points[0];
            int miss = points[1];
            return f -> {
                for (Exec e : fill) {
                    e.run(f);
                }
                long r = rt.apply(f);
                if ((r & 1) != 0) {
                    if (hit >= 0) {
                        rec.hit(hit);
                    }
                } else {
                    rec.hit(miss);
                }
                return r;
            };
        }
        return f -> {
            for (Exec e : fill) {
                e.run(f);
            }
            return rt.apply(f);
        };
    }

    /**
     * {@code pkt.lookahead<H>()}: a temporary header filled from the packet (without moving the
     * cursor) each time the place is used; too few bits left is PacketTooShort.
     */
    Place lookaheadHeader(Call c, Type h) {
        if (!(c.target instanceof CallTarget.ExternMethod em) || !em.method().name.equals("lookahead")) {
            throw CompileError.unsupported(c.pos, "call returning a header");
        }
        HeaderCodec codec = codecOf(h, c);
        int temp = cx.layout.alloc(h);
        int tooShort = cx.errorCode("PacketTooShort");
        LExpr fill = f -> {
            if (f.cursorBits + codec.bits > f.inLen * 8) {
                f.parserError = tooShort;
                f.flow = Frame.REJECT;
                java.util.Arrays.fill(f.s, temp, temp + Layout.slots(h), 0L);
                return 0;
            }
            codec.extract(f.in, f.cursorBits, f.s, temp);
            return 0;
        };
        return new Place(temp, fill, h);
    }

    /**
     * A call of a function returning a header, struct, union or tuple: its return slots, filled by
     * running the call each time the place is used (as for {@link #lookaheadHeader}).
     */
    Place functionResult(Call c, FunctionDecl fn) {
        Exec call = functionCall(c, fn);
        int ret = cx.functions.get(fn).retBase();
        return new Place(ret, f -> {
            call.run(f);
            return 0;
        }, fn.ret);
    }

    /** {@code r.read(dst, index)} as a statement. */
    private Exec registerRead(Call c, RegisterArray r) {
        Place dst = ex.place(c.args.get(0));
        LExpr idx = ex.narrow(c.args.get(1));
        if (r.words == 1) {
            int is = ex.staticSlotThroughWidening(c.args.get(1));
            if (dst.isStatic() && is >= 0) {
                // the common shape (register.read(meta.x, (bit<32>) meta.i)) as one leaf closure
                int d = dst.base();
                long mask = dst.type() instanceof Type.Bits b ? BitIO.mask(b.width()) : -1L;
                return f -> f.s[d] = r.read(f.s[is]) & mask;
            }
            ExprCompiler.Storer st = ex.storer(dst);
            return f -> st.store(f, r.read(idx.eval(f)));
        }
        return f -> r.readWide(idx.eval(f), f.s, dst.slot(f));
    }

    /** {@code r.write(index, value)}. */
    private Exec registerWrite(Call c, RegisterArray r) {
        LExpr idx = ex.narrow(c.args.get(0));
        Expr value = c.args.get(1);
        if (r.words == 1) {
            int is = ex.staticSlotThroughWidening(c.args.get(0));
            int vs = ex.staticSlotThroughWidening(value);
            if (is >= 0 && vs >= 0) {
                return f -> r.write(f.s[is], f.s[vs]);
            }
            LExpr v = ex.narrow(value);
            return f -> r.write(idx.eval(f), v.eval(f));
        }
        WExpr v = ex.wide(value);
        int tmp = cx.layout.allocRaw(r.words);
        return f -> {
            v.eval(f, f.s, tmp);
            r.writeWide(idx.eval(f), f.s, tmp);
        };
    }

    /**
     * {@code access} preceded by the mark of the memory {@code r} lives in ({@code @innet_memory},
     * {@link dev.innet.p4sim.runtime.MemoryAccesses}); {@code access} itself when it lives in none, so
     * programs without the annotation compile exactly as before. One overload per closure type.
     */
    private Exec touching(RegisterArray r, Exec access) {
        int id = cx.registerMemory.getOrDefault(r, -1);
        dev.innet.p4sim.runtime.MemoryAccesses m = cx.memories;
        return id < 0 ? access : f -> { m.touch(id); access.run(f); };
    }

    private LExpr touching(RegisterArray r, LExpr access) {
        int id = cx.registerMemory.getOrDefault(r, -1);
        dev.innet.p4sim.runtime.MemoryAccesses m = cx.memories;
        return id < 0 ? access : f -> { m.touch(id); return access.eval(f); };
    }

    private WExpr touching(RegisterArray r, WExpr access) {
        int id = cx.registerMemory.getOrDefault(r, -1);
        dev.innet.p4sim.runtime.MemoryAccesses m = cx.memories;
        return id < 0 ? access : (f, d, o) -> { m.touch(id); access.eval(f, d, o); };
    }

    RegisterArray register(Expr target) {
        Object o = cx.externs.get(((Name) target).decl);
        if (!(o instanceof RegisterArray r)) {
            throw new CompileError(target.pos, "internal: register instance not found");
        }
        return r;
    }

    // ---------------------------------------------------------------- call statements

    Exec statement(Call c) {
        switch ((CallTarget) c.target) {
            case CallTarget.HeaderMethod hm -> {
                Expr header = ((Member) c.callee).target;
                Place p = ex.place(header);
                if (hm.method().equals("setValid") && invalidateSiblings(header) != null) {
                    return then(invalidateSiblings(header), f -> f.s[p.slot(f)] = 1);
                }
                if (hm.method().equals("isValid")) {
                    LExpr v = narrowCall(c);
                    return f -> v.eval(f);
                }
                return switch (hm.method()) {
                    case "setValid" -> p.isStatic() ? f -> f.s[p.base()] = 1 : f -> f.s[p.slot(f)] = 1;
                    case "setInvalid" -> p.isStatic() ? f -> f.s[p.base()] = 0 : f -> f.s[p.slot(f)] = 0;
                    default -> {
                        LExpr v = ex.read(p);
                        yield f -> v.eval(f);
                    }
                };
            }
            case CallTarget.StackMethod sm -> {
                return stackOp(c, sm.method());
            }
            case CallTarget.TableApply ta -> {
                LExpr apply = tableApply(ta.table());
                return f -> apply.eval(f);
            }
            case CallTarget.ActionCall ac -> {
                return actionCall(c, ac.action());
            }
            case CallTarget.ControlApply ca -> {
                return controlApply(c);
            }
            case CallTarget.ParserApply pa -> {
                return parserApply(c);
            }
            case CallTarget.FunctionCall fc -> {
                return functionCall(c, fc.function());
            }
            case CallTarget.ExternMethod em -> {
                return externMethod(c, em);
            }
            case CallTarget.ExternFunction ef -> {
                return externFunction(c, ef.extern().name);
            }
        }
    }

    private Exec stackOp(Call c, String method) {
        Place sp = ex.place(((Member) c.callee).target);
        Type.Stack st = (Type.Stack) sp.type();
        int count = ex.constant(c.args.get(0)).intValue();
        int elem = Layout.slots(st.element());
        int size = st.size();
        int[] validity = validitySlots(st.element());
        return f -> {
            int base = sp.slot(f);
            int first = base + 1;
            long next = f.s[base];
            if (method.equals("push_front")) {
                for (int i = size - 1; i >= 0; i--) {
                    int dst = first + i * elem;
                    if (i - count >= 0) {
                        System.arraycopy(f.s, first + (i - count) * elem, f.s, dst, elem);
                    } else {
                        for (int v : validity) {
                            f.s[dst + v] = 0; // shifted-in elements are invalid
                        }
                    }
                }
                f.s[base] = Math.min(size, next + count);
            } else {
                for (int i = 0; i < size; i++) {
                    int dst = first + i * elem;
                    if (i + count < size) {
                        System.arraycopy(f.s, first + (i + count) * elem, f.s, dst, elem);
                    } else {
                        for (int v : validity) {
                            f.s[dst + v] = 0;
                        }
                    }
                }
                f.s[base] = Math.max(0, next - count);
            }
        };
    }

    /** The validity slots of a stack element: a header's own, or each member's of a header union. */
    private static int[] validitySlots(Type element) {
        if (element instanceof Type.HeaderUnion u) {
            return u.fields().stream().mapToInt(f -> Layout.fieldOffset(u, f.name())).toArray();
        }
        return new int[] {0};
    }

    /**
     * {@code extract(us.next.h)} on a stack of header unions: into member h of element nextIndex,
     * the element's other members become invalid, nextIndex advances (StackOutOfBounds when full).
     */
    private Exec extractUnionStackMember(Member member, Member next, Type.Stack st) {
        Type.HeaderUnion u = (Type.HeaderUnion) st.element();
        Place sp = ex.place(next.target);
        HeaderCodec codec = codec((Type.Header) member.type, member);
        int elem = Layout.slots(u);
        int size = st.size();
        int memberOff = Layout.fieldOffset(u, member.member);
        int[] others = u.fields().stream().filter(f -> !f.name().equals(member.member))
                .mapToInt(f -> Layout.fieldOffset(u, f.name())).toArray();
        int outOfBounds = cx.errorCode("StackOutOfBounds");
        int tooShort = cx.errorCode("PacketTooShort");
        return f -> {
            int base = sp.slot(f);
            long idx = f.s[base];
            if (idx >= size) {
                f.parserError = outOfBounds;
                f.flow = Frame.REJECT;
                return;
            }
            if (f.cursorBits + codec.bits > f.inLen * 8) {
                f.parserError = tooShort;
                f.flow = Frame.REJECT;
                return;
            }
            int at = base + 1 + (int) idx * elem;
            codec.extract(f.in, f.cursorBits, f.s, at + memberOff);
            for (int o : others) {
                f.s[at + o] = 0;
            }
            f.cursorBits += codec.bits;
            f.s[base] = idx + 1;
        };
    }

    /** Direct action call: copy-in of in/inout/directionless arguments, body, copy-out of out/inout ones. */
    private Exec actionCall(Call c, ActionDecl a) {
        ActionRuntime ar = cx.actions.get(a);
        List<Exec> in = new ArrayList<>();
        List<Exec> out = new ArrayList<>();
        for (int i = 0; i < a.params.size(); i++) {
            Param p = a.params.get(i);
            Place pp = new Place(cx.storage.get(p), null, p.type);
            Expr arg = c.args.get(i);
            in.add(p.dir == Direction.OUT || arg instanceof DontCare ? clear(pp) : assign(pp, arg));
            if ((p.dir == Direction.OUT || p.dir == Direction.INOUT) && !(arg instanceof DontCare)) {
                out.add(copyOut(pp, arg));
            }
        }
        if (ar.body == null) {
            throw new CompileError(c.pos, "internal: action " + a.name + " called before its body was compiled");
        }
        return cx.spec.actionCall(cx.spec.block(in.toArray(Exec[]::new)), ar.body, cx.spec.block(out.toArray(Exec[]::new)));
    }

    /** A function call: copy-in, body (a return ends it), copy-out; the value is left in its return slots. */
    private Exec functionCall(Call c, FunctionDecl fn) {
        CompileContext.FunctionRuntime rt = cx.functions.get(fn);
        List<Exec> in = new ArrayList<>();
        List<Exec> out = new ArrayList<>();
        for (int i = 0; i < fn.params.size(); i++) {
            Param p = fn.params.get(i);
            Place pp = new Place(rt.paramBases()[i], null, p.type);
            Expr arg = c.args.get(i);
            in.add(p.dir == Direction.OUT || arg instanceof DontCare ? clear(pp) : assign(pp, arg));
            if ((p.dir == Direction.OUT || p.dir == Direction.INOUT) && !(arg instanceof DontCare)) {
                out.add(copyOut(pp, arg));
            }
        }
        return cx.spec.actionCall(cx.spec.block(in.toArray(Exec[]::new)), rt.body(), cx.spec.block(out.toArray(Exec[]::new)));
    }

    /** A parser instance: its state machine (a reject rejects the caller too) with copy-in/copy-out. */
    private Exec parserApply(Call c) {
        Instantiation inst = (Instantiation) ((Name) ((Member) c.callee).target).decl;
        Compiler.ParserInstance pi = (Compiler.ParserInstance) cx.externs.get(inst);
        List<Exec> in = new ArrayList<>();
        List<Exec> out = new ArrayList<>();
        for (int i = 0; i < pi.decl().params.size(); i++) {
            Param p = pi.decl().params.get(i);
            if (p.type instanceof Type.Extern) {
                continue; // the shared packet_in
            }
            Place pp = new Place(pi.paramBases()[i], null, p.type);
            Expr arg = c.args.get(i);
            in.add(p.dir == Direction.OUT || arg instanceof DontCare ? clear(pp) : assign(pp, arg));
            if ((p.dir == Direction.OUT || p.dir == Direction.INOUT) && !(arg instanceof DontCare)) {
                out.add(copyOut(pp, arg));
            }
        }
        return cx.spec.actionCall(cx.spec.block(in.toArray(Exec[]::new)), pi.body(), cx.spec.block(out.toArray(Exec[]::new)));
    }

    /** {@code inst.apply(args)}: copy-in, the instance's body, copy-out (also after an exit), like an action call. */
    private Exec controlApply(Call c) {
        // an instance, or a control-typed constructor parameter bound to one (Compiler.bindCtorArgs)
        Object applied = ((Name) ((Member) c.callee).target).decl;
        Compiler.ControlInstance ci = (Compiler.ControlInstance) cx.externs.get(applied);
        List<Exec> in = new ArrayList<>();
        List<Exec> out = new ArrayList<>();
        for (int i = 0; i < ci.decl().params.size(); i++) {
            Param p = ci.decl().params.get(i);
            if (p.type instanceof Type.Extern) {
                continue; // bound when the instance was compiled
            }
            Place pp = new Place(ci.paramBases()[i], null, p.type);
            Expr arg = c.args.get(i);
            in.add(p.dir == Direction.OUT || arg instanceof DontCare ? clear(pp) : assign(pp, arg));
            if ((p.dir == Direction.OUT || p.dir == Direction.INOUT) && !(arg instanceof DontCare)) {
                out.add(copyOut(pp, arg));
            }
        }
        return cx.spec.actionCall(cx.spec.block(in.toArray(Exec[]::new)), ci.body(), cx.spec.block(out.toArray(Exec[]::new)));
    }

    /**
     * An out parameter starts uninitialised in P4; p4sim makes it 0 (headers invalid) on every call,
     * so nothing leaks from an earlier call or packet.
     */
    static Exec clear(Place p) {
        int n = Layout.slots(p.type());
        int base = p.base();
        return n == 1 ? f -> f.s[base] = 0 : f -> java.util.Arrays.fill(f.s, base, base + n, 0L);
    }

    /**
     * Copy-out of an out/inout parameter to its argument: a place, or a slice of one (written as a
     * slice assignment, nested slices folded).
     */
    Exec copyOut(Place param, Expr arg) {
        if (arg instanceof Slice outer) {
            Slice sl = outer;
            int lo = outer.loBit;
            while (sl.target instanceof Slice inner) {
                lo += inner.loBit;
                sl = inner;
            }
            int w = outer.hiBit - outer.loBit + 1;
            if (w > 64) {
                throw CompileError.unsupported(arg.pos, "slice wider than 64 bits as an out argument");
            }
            int from = param.base();
            return StmtCompiler.sliceStore(ex.place(sl.target), lo, w, f -> f.s[from]);
        }
        return copy(param, ex.place(arg));
    }

    /**
     * A struct or header initialiser: built field by field in scratch slots (so {@code s = {s.b, s.a}}
     * reads the old values), then copied. A header built this way is valid; {@code {#}} only makes
     * the target invalid, as p4c lowers it to setInvalid().
     */
    private Exec initializer(Place dst, Expr e) {
        Type t = dst.type();
        if (e instanceof InvalidHeader) {
            return dst.isStatic() ? f -> f.s[dst.base()] = 0 : f -> f.s[dst.slot(f)] = 0;
        }
        List<Type.FieldT> fields = t instanceof Type.Header h ? h.fields() : ((Type.Struct) t).fields();
        Place tmp = new Place(cx.layout.alloc(t), null, t);
        List<Exec> parts = new ArrayList<>();
        if (t instanceof Type.Header) {
            int valid = tmp.base();
            parts.add(f -> f.s[valid] = 1);
        }
        for (int i = 0; i < fields.size(); i++) {
            Expr v;
            if (e instanceof StructInit si) {
                v = si.values.get(si.names.indexOf(fields.get(i).name()));
            } else {
                v = ((ListExpr) e).elements.get(i);
            }
            parts.add(assign(tmp.field(fields.get(i).name()), v));
        }
        parts.add(copy(tmp, dst));
        return cx.spec.block(parts.toArray(Exec[]::new));
    }

    /** dst = value of expression {@code e} (any type). */
    Exec assign(Place dst, Expr e) {
        Type t = dst.type();
        if (e instanceof ListExpr l && t instanceof Type.Tuple tu) {
            // a tuple from a list expression: element by element
            Exec[] parts = new Exec[l.elements.size()];
            for (int i = 0; i < parts.length; i++) {
                Place ep = dst.withOffset(Layout.tupleOffset(tu, i), null, tu.elements().get(i));
                parts[i] = assign(ep, l.elements.get(i));
            }
            return cx.spec.block(parts);
        }
        if ((t instanceof Type.Header || t instanceof Type.Struct)
                && (e instanceof ListExpr || e instanceof StructInit || e instanceof InvalidHeader)) {
            return initializer(dst, e);
        }
        if (Layout.isNarrow(t)) {
            return assignNarrow(dst, e);
        }
        if (Layout.isWide(t)) {
            WExpr v = ex.wide(e);
            int n = Layout.slots(t);
            int tmp = cx.layout.allocRaw(n);
            return f -> {
                int slot = dst.slot(f); // the target's index first, then the value's side effects (P4 order)
                v.eval(f, f.s, tmp);
                System.arraycopy(f.s, tmp, f.s, slot, n);
            };
        }
        return copy(ex.place(e), dst);
    }

    /** Narrow assignment, specialised for the common static shapes so each is a single closure. */
    private Exec assignNarrow(Place dst, Expr e) {
        long mask = dst.type() instanceof Type.Bits b ? BitIO.mask(b.width()) : -1L;
        BigInteger c = ex.constant(e);
        if (dst.isStatic()) {
            int k = dst.base();
            if (c != null) {
                long v = ExprCompiler.words(c, e.type instanceof Type.InfInt ? 64 : ExprCompiler.width(e.type))[0] & mask;
                return f -> f.s[k] = v;
            }
            if (ex.staticSlot(e) >= 0 && ExprCompiler.width(e.type) <= ExprCompiler.width(dst.type())
                    && !(e.type instanceof Type.Bits eb && eb.signed())) {
                int j = ex.staticSlot(e);
                return f -> f.s[k] = f.s[j];
            }
            return cx.spec.storeStatic(k, mask, ex.narrow(e));
        }
        LExpr v = ex.narrow(e);
        // Java evaluates an array index before the assigned value: the target's index (a header stack
        // index) is taken before the value's side effects (a function's inout arguments), as P4 requires
        return f -> f.s[dst.slot(f)] = v.eval(f) & mask;
    }

    /** Copies a stored value of any type between places of the same type. */
    static Exec copy(Place src, Place dst) {
        int n = Layout.slots(src.type());
        if (src.isStatic() && dst.isStatic()) {
            int a = src.base();
            int b = dst.base();
            if (n == 1) {
                return f -> f.s[b] = f.s[a];
            }
            return f -> System.arraycopy(f.s, a, f.s, b, n);
        }
        return f -> System.arraycopy(f.s, src.slot(f), f.s, dst.slot(f), n);
    }

    // ---------------------------------------------------------------- extern methods

    private Exec externMethod(Call c, CallTarget.ExternMethod em) {
        Member m = (Member) c.callee;
        String ext = em.extern().name;
        String method = em.method().name;
        switch (ext + "." + method) {
            case "packet_in.extract" -> {
                if (c.args.size() == 2) {
                    return then(extractVarbit(c.args.get(0), c.args.get(1)), invalidateSiblings(c.args.get(0)));
                }
                return then(extract(c.args.get(0)), invalidateSiblings(c.args.get(0)));
            }
            case "packet_in.advance" -> {
                LExpr bits = ex.narrow(c.args.get(0));
                int err = cx.errorCode("PacketTooShort");
                return f -> {
                    long b = bits.eval(f);
                    if (f.cursorBits + b > (long) f.inLen * 8) {
                        f.parserError = err;
                        f.flow = Frame.REJECT;
                        return;
                    }
                    f.cursorBits += (int) b;
                };
            }
            case "packet_in.lookahead" -> {
                // a lookahead whose value is discarded: only its check that enough bits remain has an
                // effect (PacketTooShort), whatever the looked-at type (bit<N> of any width, header, struct)
                int bits = c.type instanceof Type.Bits ? ExprCompiler.width(c.type) : codecOf(c.type, c).bits;
                int err = cx.errorCode("PacketTooShort");
                return f -> {
                    if (f.cursorBits + bits > f.inLen * 8) {
                        f.parserError = err;
                        f.flow = Frame.REJECT;
                    }
                };
            }
            case "packet_out.emit" -> {
                return emit(c.args.get(0));
            }
            case "register.read" -> {
                RegisterArray r = register(m.target);
                if (c.args.size() == 1) {
                    LExpr v = narrowCall(c);
                    return f -> v.eval(f);
                }
                return touching(r, registerRead(c, r));
            }
            case "register.write" -> {
                RegisterArray r = register(m.target);
                return touching(r, registerWrite(c, r));
            }
            case "counter.count" -> {
                CounterArray ctr = (CounterArray) cx.externs.get(((Name) m.target).decl);
                LExpr idx = ex.narrow(c.args.get(0));
                int len = cx.smField("packet_length");
                return f -> ctr.count(idx.eval(f), f.s[len]);
            }
            case "meter.execute_meter" -> {
                dev.innet.p4sim.runtime.MeterArray mt = (dev.innet.p4sim.runtime.MeterArray) cx.externs.get(((Name) m.target).decl);
                LExpr idx = ex.narrow(c.args.get(0));
                ExprCompiler.Storer st = ex.storer(ex.place(c.args.get(1)));
                int len = cx.smField("packet_length");
                ArchState arch = cx.arch;
                return f -> st.store(f, mt.execute(idx.eval(f), f.s[len], arch.nowMicros));
            }
            case "direct_meter.read" -> {
                CompileContext.DirectMeter dm = (CompileContext.DirectMeter) cx.externs.get(((Name) m.target).decl);
                ExprCompiler.Storer st = ex.storer(ex.place(c.args.get(0)));
                int slot = dm.colorSlot();
                return f -> st.store(f, f.s[slot]);
            }
            case "direct_counter.count" -> {
                // bmv2 counts direct counters when the owning table hits; the call itself has no effect
                return f -> { };
            }
            default -> throw CompileError.unsupported(c.pos, "extern method " + ext + "." + method);
        }
    }

    /** {@code first} then, unless it ended the block (a parser error), {@code second} (null: nothing). */
    static Exec then(Exec first, Exec second) {
        if (second == null) {
            return first;
        }
        return f -> {
            first.run(f);
            if (f.flow == Frame.NORMAL) {
                second.run(f);
            }
        };
    }

    /**
     * For a header that is a member of a header union ({@code u.h}): after it became valid (extract,
     * setValid) or was assigned, the union's other members are invalid, so at most one is valid.
     * Null for any other header.
     */
    Exec invalidateSiblings(Expr header) {
        if (!(header instanceof Member m) || !(m.target.type instanceof Type.HeaderUnion u)) {
            return null;
        }
        if (m.target instanceof Member nm && nm.member.equals("next") && nm.target.type instanceof Type.Stack) {
            return null; // extract(us.next.h) does it itself, before nextIndex moves
        }
        Place up = ex.place(m.target);
        List<Integer> others = new ArrayList<>();
        for (Type.FieldT f : u.fields()) {
            if (!f.name().equals(m.member)) {
                others.add(Layout.fieldOffset(u, f.name()));
            }
        }
        int[] offs = others.stream().mapToInt(Integer::intValue).toArray();
        return f -> {
            int base = up.slot(f);
            for (int o : offs) {
                f.s[base + o] = 0;
            }
        };
    }

    /**
     * {@code extract(h, bits)} for a header with a varbit field, with bmv2's checks in bmv2's order:
     * a length that is not a whole number of bytes is ParserInvalidArgument, too few bytes left is
     * PacketTooShort, more than the varbit's maximum is HeaderTooShort. On an error the header is unchanged.
     */
    private Exec extractVarbit(Expr target, Expr length) {
        if (target instanceof Member m && m.member.equals("next") && m.target.type instanceof Type.Stack st) {
            // into a stack: StackOutOfBounds first (as bmv2), then as below into element nextIndex, which advances
            Place sp = ex.place(m.target);
            int elem = Layout.slots(st.element());
            int size = st.size();
            int outOfBounds = cx.errorCode("StackOutOfBounds");
            Exec one = extractVarbitAt(target, length, f -> {
                int base = sp.slot(f);
                return base + 1 + (int) f.s[base] * elem;
            });
            return f -> {
                int base = sp.slot(f);
                if (f.s[base] >= size) {
                    f.parserError = outOfBounds;
                    f.flow = Frame.REJECT;
                    return;
                }
                one.run(f);
                if (f.flow == Frame.NORMAL) {
                    f.s[base]++;
                }
            };
        }
        Place p = ex.place(target);
        return extractVarbitAt(target, length, p::slot);
    }

    /** The header's slot, computed when the extract runs. */
    @FunctionalInterface
    private interface SlotOf {
        int slot(Frame f);
    }

    private Exec extractVarbitAt(Expr target, Expr length, SlotOf at) {
        HeaderCodec codec = codec((Type.Header) target.type, target);
        LExpr len = ex.narrow(length);
        int invalidArgument = cx.errorCode("ParserInvalidArgument");
        int tooShort = cx.errorCode("PacketTooShort");
        int headerTooShort = cx.errorCode("HeaderTooShort");
        int fixed = codec.bits;
        int max = codec.varbitMax;
        return f -> {
            long vbits = len.eval(f);
            if (vbits % 8 != 0) {
                f.parserError = invalidArgument;
                f.flow = Frame.REJECT;
                return;
            }
            if (f.cursorBits + fixed + vbits > (long) f.inLen * 8) {
                f.parserError = tooShort;
                f.flow = Frame.REJECT;
                return;
            }
            if (vbits > max) {
                f.parserError = headerTooShort;
                f.flow = Frame.REJECT;
                return;
            }
            codec.extractVarbit(f.in, f.cursorBits, (int) vbits, f.s, at.slot(f));
            f.cursorBits += fixed + (int) vbits;
        };
    }

    private Exec extract(Expr target) {
        int tooShort = cx.errorCode("PacketTooShort");
        if (target instanceof Member hm && hm.target instanceof Member nm && nm.member.equals("next")
                && nm.target.type instanceof Type.Stack st && st.element() instanceof Type.HeaderUnion) {
            return extractUnionStackMember(hm, nm, st);
        }
        if (target instanceof Member m && m.target.type instanceof Type.Stack st && m.member.equals("next")) {
            Place sp = ex.place(m.target);
            HeaderCodec codec = codec((Type.Header) st.element(), target);
            int elem = Layout.slots(st.element());
            int size = st.size();
            int outOfBounds = cx.errorCode("StackOutOfBounds");
            Exec plain = f -> {
                int base = sp.slot(f);
                long next = f.s[base];
                if (next >= size) {
                    f.parserError = outOfBounds;
                    f.flow = Frame.REJECT;
                    return;
                }
                if (f.cursorBits + codec.bits > f.inLen * 8) {
                    f.parserError = tooShort;
                    f.flow = Frame.REJECT;
                    return;
                }
                codec.extract(f.in, f.cursorBits, f.s, base + 1 + (int) next * elem);
                f.cursorBits += codec.bits;
                f.s[base] = next + 1;
            };
            return sp.isStatic() && codec.packer() != null ? cx.spec.extractNext(sp.base(), codec, tooShort, elem, size, outOfBounds, plain) : plain;
        }
        Place p = ex.place(target);
        HeaderCodec codec = codec((Type.Header) p.type(), target);
        Exec plain = f -> {
            if (f.cursorBits + codec.bits > f.inLen * 8) {
                f.parserError = tooShort;
                f.flow = Frame.REJECT;
                return;
            }
            codec.extract(f.in, f.cursorBits, f.s, p.slot(f));
            f.cursorBits += codec.bits;
        };
        return p.isStatic() && codec.packer() != null ? cx.spec.extractHeader(p.base(), codec, tooShort, plain) : plain;
    }

    /** emit of a header, a header stack, or a struct of them (in field order); invalid headers emit nothing. */
    private Exec emit(Expr arg) {
        List<Exec> parts = new ArrayList<>();
        emitPlace(ex.place(arg), arg, parts);
        Exec[] all = parts.toArray(Exec[]::new);
        // emit never raises a flow signal, so a block (which stops at one) runs every part
        return cx.spec.block(all);
    }

    private void emitPlace(Place p, Expr at, List<Exec> parts) {
        switch (p.type()) {
            case Type.Header h when codec(h, at).varbitIndex >= 0 -> {
                HeaderCodec codec = codec(h, at);
                int most = (codec.bits + codec.varbitMax) / 8;
                parts.add(f -> {
                    int base = p.slot(f);
                    if (f.s[base] != 0) {
                        f.ensureOut(most);
                        f.outLen += codec.emitVarbit(f.s, base, f.out, f.outLen);
                    }
                });
            }
            case Type.HeaderUnion u -> {
                // at most one member is valid: emitting each in turn emits that one
                for (Type.FieldT fld : u.fields()) {
                    emitPlace(p.field(fld.name()), at, parts);
                }
            }
            case Type.Header h -> {
                HeaderCodec codec = codec(h, at);
                Exec plain = f -> {
                    int base = p.slot(f);
                    if (f.s[base] != 0) {
                        f.ensureOut(codec.bytes);
                        codec.emit(f.s, base, f.out, f.outLen);
                        f.outLen += codec.bytes;
                    }
                };
                parts.add(p.isStatic() ? cx.spec.emitHeader(p.base(), codec, plain) : plain);
            }
            case Type.Stack st -> {
                int elem = Layout.slots(st.element());
                for (int i = 0; i < st.size(); i++) {
                    emitPlace(p.withOffset(1 + i * elem, null, st.element()), at, parts);
                }
            }
            case Type.Struct s -> {
                for (Type.FieldT fld : s.fields()) {
                    emitPlace(p.field(fld.name()), at, parts);
                }
            }
            default -> throw CompileError.unsupported(at.pos, "emit of a struct containing " + p.type() + " (only headers can be emitted)");
        }
    }

    // ---------------------------------------------------------------- extern functions

    /** The first call in {@code e} other than a header's isValid(), or null (for log_msg's arguments). */
    private static Call firstCall(Expr e) {
        return switch (e) {
            case Call c when c.callee instanceof Member m && m.member.equals("isValid") && c.args.isEmpty() -> firstCall(m.target);
            case Call c -> c;
            case Member m -> firstCall(m.target);
            case Index ix -> firstNonNull(firstCall(ix.target), firstCall(ix.index));
            case Slice sl -> firstNonNull(firstCall(sl.target), firstNonNull(firstCall(sl.hi), firstCall(sl.lo)));
            case Unary u -> firstCall(u.operand);
            case Binary b -> firstNonNull(firstCall(b.left), firstCall(b.right));
            case Conditional q -> firstNonNull(firstCall(q.cond), firstNonNull(firstCall(q.then), firstCall(q.otherwise)));
            case Cast k -> firstCall(k.operand);
            case ListExpr l -> l.elements.stream().map(CallCompiler::firstCall).filter(x -> x != null).findFirst().orElse(null);
            case StructInit si -> si.values.stream().map(CallCompiler::firstCall).filter(x -> x != null).findFirst().orElse(null);
            case NamedArg na -> firstCall(na.value);
            default -> null;
        };
    }

    private static Call firstNonNull(Call a, Call b) {
        return a != null ? a : b;
    }

    private Exec externFunction(Call c, String name) {
        List<Expr> a = c.args;
        ArchState arch = cx.arch;
        switch (name) {
            case "verify" -> {
                LExpr cond = ex.narrow(a.get(0));
                LExpr err = ex.narrow(a.get(1));
                return f -> {
                    if (cond.eval(f) == 0) {
                        f.parserError = (int) err.eval(f);
                        f.flow = Frame.REJECT;
                    }
                };
            }
            case "mark_to_drop" -> {
                // mark_to_drop() without an argument (deprecated in v1model) writes the pipeline's standard metadata
                Place sm = a.isEmpty() ? new Place(cx.smBase, null, cx.sm) : ex.place(a.get(0));
                int spec = Layout.fieldOffset(sm.type(), "egress_spec");
                int mcast = Layout.fieldOffset(sm.type(), "mcast_grp");
                return f -> {
                    int base = sm.slot(f);
                    f.s[base + spec] = DROP_PORT;
                    f.s[base + mcast] = 0;
                };
            }
            case "random" -> {
                Place dst = ex.place(a.get(0));
                LExpr lo = ex.narrow(a.get(1));
                LExpr hi = ex.narrow(a.get(2));
                if (!Layout.isNarrow(dst.type())) {
                    throw CompileError.unsupported(c.pos, "random of " + dst.type());
                }
                ExprCompiler.Storer st = ex.storer(dst);
                return f -> {
                    long l = lo.eval(f);
                    long h = hi.eval(f);
                    st.store(f, Long.compareUnsigned(h, l) <= 0 ? l : arch.random.between(l, h));
                };
            }
            case "digest" -> {
                LExpr receiver = ex.narrow(a.get(0));
                FieldList data = new FieldList(a.get(1), ex, cx);
                if (data.hasVarbit) {
                    throw CompileError.unsupported(c.pos, "digest of a varbit field");
                }
                return f -> arch.digests.add(new ArchState.DigestRecord((int) receiver.eval(f), data.values(f)));
            }
            case "hash" -> {
                return hash(c);
            }
            case "clone", "clone_preserving_field_list" -> {
                LExpr type = ex.narrow(a.get(0));
                LExpr session = ex.narrow(a.get(1));
                int fieldList = a.size() > 2 ? ex.constant(a.get(2)).intValue() : ArchState.NONE;
                return f -> {
                    arch.cloneSession = (int) session.eval(f);
                    arch.cloneFieldList = fieldList;
                    type.eval(f);
                };
            }
            case "clone3" -> {
                LExpr type = ex.narrow(a.get(0));
                LExpr session = ex.narrow(a.get(1));
                int fieldList = dataFieldList(a.get(2));
                return f -> {
                    arch.cloneSession = (int) session.eval(f);
                    arch.cloneFieldList = fieldList;
                    type.eval(f);
                };
            }
            case "resubmit" -> {
                int fieldList = dataFieldList(a.get(0));
                return f -> arch.resubmitFieldList = fieldList;
            }
            case "recirculate" -> {
                int fieldList = dataFieldList(a.get(0));
                return f -> arch.recirculateFieldList = fieldList;
            }
            case "resubmit_preserving_field_list" -> {
                int fieldList = ex.constant(a.get(0)).intValue();
                return f -> arch.resubmitFieldList = fieldList;
            }
            case "recirculate_preserving_field_list" -> {
                int fieldList = ex.constant(a.get(0)).intValue();
                return f -> arch.recirculateFieldList = fieldList;
            }
            case "truncate" -> {
                LExpr len = ex.narrow(a.get(0));
                return f -> arch.truncateLength = len.eval(f);
            }
            case "log_msg" -> {
                // bmv2 only writes its log: no effect on packets, tables or externs. A call inside the
                // data would have effects p4sim would skip, so that form is rejected instead.
                for (Expr arg : a) {
                    Call inner = firstCall(arg);
                    if (inner != null) {
                        throw CompileError.unsupported(inner.pos, "a call inside log_msg's arguments");
                    }
                }
                return Specializer.NOP;
            }
            case "assert", "assume" -> {
                // bmv2: "Assert error: <condition> failed, file F, line L", then abort() (the switch dies)
                LExpr cond = ex.narrow(a.get(0));
                String message = (name.equals("assert") ? "Assert" : "Assume") + " error: " + ExprText.of(a.get(0))
                        + " failed, file " + c.pos.file() + ", line " + c.pos.line();
                return f -> {
                    if (cond.eval(f) == 0) {
                        throw new dev.innet.p4sim.runtime.P4AbortException(message);
                    }
                };
            }
            case "verify_checksum", "update_checksum" -> {
                return checksum(c, name.equals("verify_checksum"), false);
            }
            case "verify_checksum_with_payload", "update_checksum_with_payload" -> {
                return checksum(c, name.equals("verify_checksum_with_payload"), true);
            }
            default -> throw CompileError.unsupported(c.pos, "extern function " + name);
        }
    }

    /**
     * The field list a deprecated {@code resubmit(data)}, {@code recirculate(data)} or
     * {@code clone3(type, session, data)} preserves: the user-metadata fields (or whole metadata structs)
     * named in {@code data}, a list expression or a single field; {@code {}} preserves nothing. p4c turns
     * the data into a bmv2 field list the same way; other values (headers, standard metadata, expressions)
     * are rejected, since bmv2 carries only user metadata into the new pass.
     */
    private int dataFieldList(Expr data) {
        List<Expr> items = data instanceof ListExpr l ? l.elements : List.of(data);
        int metaEnd = cx.metaBase + Layout.slots(cx.prog.metadataType());
        List<int[]> ranges = new ArrayList<>();
        for (Expr item : items) {
            Place p = ex.place(item);
            int slots = Layout.slots(p.type());
            if (!p.isStatic() || p.base() < cx.metaBase || p.base() + slots > metaEnd) {
                throw CompileError.unsupported(item.pos, "preserving " + ExprText.of(item)
                        + " (only fields of the user metadata can be carried into a resubmitted, recirculated or cloned packet)");
            }
            ranges.add(new int[] {p.base(), slots});
        }
        int id = CompileContext.FIRST_DATA_FIELD_LIST + cx.dataFieldLists.size();
        cx.dataFieldLists.put(id, ranges);
        return id;
    }

    /** A hash or checksum function over a serialised field list. */
    @FunctionalInterface
    private interface HashFunction {
        long of(byte[] buf, int len);
    }

    /** Calculations (hash and checksum calls) compiled so far: they name the custom CRCs as p4c's JSON does. */
    private int calculations;

    /**
     * The algorithm of a hash or checksum call. crc16_custom/crc32_custom get their own {@link CustomCrc},
     * named as p4c names bmv2 calculations ("calc", "calc_0", "calc_1", ... in the order they are compiled)
     * so the control plane can set their parameters; random (hash only) draws from the switch's seeded
     * random source.
     */
    private HashFunction algorithm(Expr e, boolean forChecksum) {
        int index = calculations++;
        String calcName = index == 0 ? "calc" : "calc_" + (index - 1);
        BigInteger v = ex.constant(e);
        if (v == null || !(e.type instanceof Type.Enum en)) {
            throw CompileError.unsupported(e.pos, "non-constant hash algorithm");
        }
        String member = en.members().get(v.intValue());
        Hashes.Algorithm fixed = switch (member) {
            case "crc32" -> Hashes.Algorithm.CRC32;
            case "crc16" -> Hashes.Algorithm.CRC16;
            case "csum16" -> Hashes.Algorithm.CSUM16;
            case "xor16" -> Hashes.Algorithm.XOR16;
            case "identity" -> {
                if (forChecksum) {
                    throw CompileError.unsupported(e.pos, "identity checksum");
                }
                yield Hashes.Algorithm.IDENTITY;
            }
            default -> null;
        };
        if (fixed != null) {
            return (buf, len) -> Hashes.compute(fixed, buf, len);
        }
        switch (member) {
            case "crc16_custom", "crc32_custom" -> {
                CustomCrc crc = new CustomCrc(calcName, member.equals("crc16_custom") ? 16 : 32, e.pos.toString());
                cx.arch.customCrcs.put(calcName, crc);
                return crc::compute;
            }
            case "random" -> {
                if (forChecksum) {
                    throw CompileError.unsupported(e.pos, "random checksum");
                }
                ArchState arch = cx.arch;
                return (buf, len) -> arch.random.between(0, -1L);
            }
            default -> throw CompileError.unsupported(e.pos, "hash algorithm HashAlgorithm." + member);
        }
    }

    /** An action selector's hash over its table's selector keys (bmv2 hashes them as one calculation). */
    java.util.function.ToLongFunction<Frame> selectorHash(Expr algorithm, ListExpr keys) {
        HashFunction algo = algorithm(algorithm, false);
        FieldList data = new FieldList(keys, ex, cx);
        return f -> {
            int n = data.serializeValid(f);
            return algo.of(data.buffer(), n);
        };
    }

    /** hash(out result, algo, base, data, max): result = base + (h mod max), or base + h when max is 0. */
    private Exec hash(Call c) {
        List<Expr> a = c.args;
        Place dst = ex.place(a.get(0));
        if (!Layout.isNarrow(dst.type())) {
            throw CompileError.unsupported(c.pos, "hash result of " + dst.type());
        }
        HashFunction algo = algorithm(a.get(1), false);
        LExpr base = ex.narrow(a.get(2));
        FieldList data = new FieldList(a.get(3), ex, cx);
        LExpr max = ex.narrow(a.get(4));
        ExprCompiler.Storer st = ex.storer(dst);
        return f -> {
            int n = data.serializeValid(f);
            long h = algo.of(data.buffer(), n);
            long m = max.eval(f);
            long b = base.eval(f);
            st.store(f, m == 0 ? b + h : b + Long.remainderUnsigned(h, m));
        };
    }

    /**
     * verify_checksum/update_checksum; with {@code withPayload} the fields are followed by the packet's
     * payload (bmv2's BufBuilder appends the unparsed bytes), which the pipeline puts in the frame.
     */
    private Exec checksum(Call c, boolean verify, boolean withPayload) {
        List<Expr> a = c.args;
        LExpr cond = ex.narrow(a.get(0));
        FieldList data = new FieldList(a.get(1), ex, cx);
        HashFunction algo = algorithm(a.get(3), true);
        Place field = ex.place(a.get(2));
        if (!Layout.isNarrow(field.type())) {
            throw CompileError.unsupported(c.pos, "checksum field of type " + field.type());
        }
        long mask = BitIO.mask(ExprCompiler.width(field.type()));
        java.util.function.ToLongFunction<Frame> sum = withPayload ? withPayload(algo, data) : fieldsOnly(algo, data);
        if (verify) {
            int errSlot = cx.smField("checksum_error");
            LExpr cur = ex.read(field);
            return f -> {
                if (cond.eval(f) != 0 && (sum.applyAsLong(f) & mask) != cur.eval(f)) {
                    f.s[errSlot] = 1;
                }
            };
        }
        ExprCompiler.Storer st = ex.storer(field);
        return f -> {
            if (cond.eval(f) != 0) {
                st.store(f, sum.applyAsLong(f) & mask);
            }
        };
    }

    private static java.util.function.ToLongFunction<Frame> fieldsOnly(HashFunction algo, FieldList data) {
        return f -> {
            int n = data.serializeValid(f);
            return algo.of(data.buffer(), n);
        };
    }

    /** The fields then the payload, in a buffer of this call site that grows to the largest packet seen. */
    private static java.util.function.ToLongFunction<Frame> withPayload(HashFunction algo, FieldList data) {
        byte[][] scratch = {new byte[data.byteLength() + 1500]};
        return f -> {
            int len = data.serializeValid(f);
            int total = len + f.payloadLen;
            if (scratch[0].length < total) {
                scratch[0] = new byte[Math.max(total, scratch[0].length * 2)];
            }
            byte[] buf = scratch[0];
            System.arraycopy(data.buffer(), 0, buf, 0, len);
            System.arraycopy(f.payload, f.payloadOff, buf, len, f.payloadLen);
            return algo.of(buf, total);
        };
    }
}
