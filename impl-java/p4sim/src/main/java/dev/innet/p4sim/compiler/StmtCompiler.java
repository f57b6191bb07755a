package dev.innet.p4sim.compiler;

import dev.innet.p4sim.coverage.CoveragePoint;
import dev.innet.p4sim.frontend.Ast.*;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.BitIO;
import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.runtime.Wide;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Compiles statements to {@link Exec} closures; blocks stop at the first exit, return or parser reject. */
final class StmtCompiler {
    private final CompileContext cx;
    private final ExprCompiler ex;
    private final CallCompiler calls;

    StmtCompiler(CompileContext cx, ExprCompiler ex, CallCompiler calls) {
        this.cx = cx;
        this.ex = ex;
        this.calls = calls;
    }

    Exec block(List<Stmt> stmts) {
        List<Exec> parts = new ArrayList<>();
        for (Stmt s : stmts) {
            Exec e = compile(s);
            if (e != null) {
                parts.add(e);
            }
        }
        return cx.spec.block(parts.toArray(Exec[]::new));
    }

    Exec compile(Stmt s) {
        switch (s) {
            case Block b -> {
                return block(b.stmts);
            }
            case Assign a -> {
                return assign(a);
            }
            case CallStmt c -> {
                return calls.statement(c.call);
            }
            case If i -> {
                LExpr cond = ex.narrow(i.cond);
                Exec then = compile(i.then);
                Exec otherwise = i.otherwise == null ? null : compile(i.otherwise);
                if (cx.coverageOn()) {
                    boolean guard = cx.guards.ifGuard(i, cx.inParser);
                    String name = cx.branchName("if");
                    then = cx.probed(then, CoveragePoint.Kind.BRANCH, i.pos, name, "true", guard);
                    otherwise = cx.probed(otherwise, CoveragePoint.Kind.BRANCH, i.pos, name, "false", guard);
                }
                return cx.spec.ifElse(cond, then == null ? Specializer.NOP : then, otherwise);
            }
            case Exit e -> {
                return f -> f.flow = Frame.EXIT;
            }
            case Return r -> {
                if (r.value != null) {
                    Exec store = calls.assign(cx.returnPlace, r.value);
                    return f -> {
                        store.run(f);
                        f.flow = Frame.RETURN;
                    };
                }
                return f -> f.flow = Frame.RETURN;
            }
            case Empty e -> {
                return null;
            }
            case Switch sw -> {
                return switchStmt(sw);
            }
            case VarDecl v -> {
                return varDecl(v);
            }
            case For fl -> {
                return forLoop(fl);
            }
            case ForIn fl -> {
                return forInLoop(fl);
            }
            case Break b -> {
                return f -> f.flow = Frame.BREAK;
            }
            case Continue c -> {
                return f -> f.flow = Frame.CONTINUE;
            }
            case Instantiation inst -> throw CompileError.unsupported(inst.pos, "instantiation inside a block");
            default -> throw CompileError.unsupported(s.pos, s.getClass().getSimpleName());
        }
    }

    private Exec varDecl(VarDecl v) {
        if (v.isConst && v.type instanceof Type.InfInt) {
            // a local 'const int': an arbitrary-precision value has no storage, and every use is folded
            return Specializer.NOP;
        }
        int base = cx.layout.alloc(v.type);
        cx.storage.put(v, base);
        if (v.isConst && v.init != null) {
            // constants are folded where used, but keep the storage consistent for places
            return calls.assign(new Place(base, null, v.type), v.init);
        }
        if (v.init != null) {
            return calls.assign(new Place(base, null, v.type), v.init);
        }
        // P4 leaves uninitialised locals undefined; p4sim makes them 0 (headers invalid) for determinism
        int n = Layout.slots(v.type);
        return f -> Arrays.fill(f.s, base, base + n, 0L);
    }

    /**
     * Most iterations a loop runs each time it is entered. P4 loops are meant to be bounded (p4c
     * unrolls them); this stops one that is not instead of hanging the switch.
     */
    static final int MAX_LOOP_ITERATIONS = 1 << 16;

    /**
     * After a loop body: true when the loop must stop (break, or exit/return/reject, which stay set
     * for the enclosing blocks); a continue is cleared and the loop goes on.
     */
    private static boolean loopStops(Frame f) {
        int fl = f.flow;
        if (fl == Frame.NORMAL) {
            return false;
        }
        if (fl == Frame.CONTINUE) {
            f.flow = Frame.NORMAL;
            return false;
        }
        if (fl == Frame.BREAK) {
            f.flow = Frame.NORMAL;
        }
        return true;
    }

    private Exec forLoop(For fl) {
        Exec init = block(fl.init);
        LExpr cond = fl.cond == null ? null : ex.narrow(fl.cond);
        Exec body = compile(fl.body);
        Exec step = block(fl.updates);
        Exec b = body == null ? Specializer.NOP : body;
        return f -> {
            init.run(f);
            if (f.flow != Frame.NORMAL) {
                return;
            }
            for (int n = 0; n < MAX_LOOP_ITERATIONS; n++) {
                if (cond != null && cond.eval(f) == 0) {
                    return;
                }
                if (f.flow != Frame.NORMAL) {
                    return; // the condition applied a table that exited
                }
                b.run(f);
                if (loopStops(f)) {
                    return;
                }
                step.run(f);
                if (f.flow != Frame.NORMAL) {
                    return;
                }
            }
        };
    }

    /** for (T x in lo .. hi): bounds evaluated once, x = lo, lo + 1, ..., hi (none when lo > hi); or a stack's elements in order. */
    private Exec forInLoop(ForIn fl) {
        int slot = cx.layout.alloc(fl.var.type);
        cx.storage.put(fl.var, slot);
        Exec body = compile(fl.body);
        Exec b = body == null ? Specializer.NOP : body;
        if (fl.collection instanceof Range r) {
            LExpr lo = ex.narrow(r.lo);
            LExpr hi = ex.narrow(r.hi);
            return f -> {
                long from = lo.eval(f);
                long to = hi.eval(f);
                if (f.flow != Frame.NORMAL) {
                    return;
                }
                int n = 0;
                // unsigned order: the bounds are bit<N> values of up to 64 bits
                for (long v = from; Long.compareUnsigned(v, to) <= 0 && n < MAX_LOOP_ITERATIONS; v++, n++) {
                    f.s[slot] = v;
                    b.run(f);
                    if (loopStops(f) || v == to) {
                        return;
                    }
                }
            };
        }
        if (fl.collection instanceof ListExpr l) {
            Place var = new Place(slot, null, fl.var.type);
            Exec[] loads = new Exec[l.elements.size()];
            for (int i = 0; i < loads.length; i++) {
                loads[i] = calls.assign(var, l.elements.get(i));
            }
            return f -> {
                for (Exec load : loads) {
                    load.run(f);
                    if (f.flow != Frame.NORMAL) {
                        return;
                    }
                    b.run(f);
                    if (loopStops(f)) {
                        return;
                    }
                }
            };
        }
        Place stack = ex.place(fl.collection);
        Type.Stack st = (Type.Stack) fl.collection.type;
        int elem = Layout.slots(st.element());
        int size = st.size();
        return f -> {
            int first = stack.slot(f) + 1; // after the next-index slot
            for (int i = 0; i < size; i++) {
                System.arraycopy(f.s, first + i * elem, f.s, slot, elem);
                b.run(f);
                if (loopStops(f)) {
                    return;
                }
            }
        };
    }

    private Exec assign(Assign a) {
        if (a.lhs instanceof Slice outer) {
            // nested slices x[h1:l1][h2:l2] are one slice of the innermost target
            Slice sl = outer;
            int lo = outer.loBit;
            while (sl.target instanceof Slice inner) {
                lo += inner.loBit;
                sl = inner;
            }
            Place p = ex.place(sl.target);
            int w = outer.hiBit - outer.loBit + 1;
            if (w > 64) {
                throw CompileError.unsupported(a.pos, "assignment to a slice wider than 64 bits");
            }
            return sliceStore(p, lo, w, ex.narrow(a.rhs));
        }
        Place dst = ex.place(a.lhs);
        Exec store = calls.assign(dst, a.rhs);
        Exec siblings = calls.invalidateSiblings(a.lhs);
        if (siblings != null) {
            // as bmv2: a valid header assigned to a union member makes the other members invalid
            return f -> {
                store.run(f);
                if (f.s[dst.slot(f)] != 0) {
                    siblings.run(f);
                }
            };
        }
        return store;
    }

    /**
     * Stores the low {@code w} bits of {@code v} at bits {@code lo..lo+w-1} of the value at {@code p}.
     * The target's slot is computed before the value, so an index's side effects come first (P4 order).
     */
    static Exec sliceStore(Place p, int lo, int w, LExpr v) {
        long mask = BitIO.mask(w);
        if (Layout.isWide(p.type())) {
            int n = Layout.slots(p.type());
            return f -> {
                int slot = p.slot(f); // the target first, then the value's side effects
                long x = v.eval(f);
                Wide.clearBits(f.s, slot, n, lo, w);
                Wide.orBits(f.s, slot, n, lo, w, x);
            };
        }
        long field = mask << lo;
        return f -> {
            int slot = p.slot(f); // the target first, then the value's side effects
            long x = v.eval(f);
            f.s[slot] = (f.s[slot] & ~field) | ((x & mask) << lo);
        };
    }

    private Exec switchStmt(Switch sw) {
        return sw.subject.type instanceof Type.ApplyResult ? actionRunSwitch(sw) : valueSwitch(sw);
    }

    /** The body each case runs: a fall-through label shares the next body. */
    private Exec[] caseBodies(Switch sw) {
        Exec[] bodies = new Exec[sw.cases.size()];
        Exec next = null;
        for (int i = sw.cases.size() - 1; i >= 0; i--) {
            SwitchCase c = sw.cases.get(i);
            if (c.body() != null) {
                next = block(c.body().stmts);
            }
            bodies[i] = next;
        }
        return bodies;
    }

    /** With coverage, each case label's body (fall-through labels share one) preceded by the label's own probe. */
    private Exec[] probedCases(Switch sw, Exec[] bodies) {
        if (!cx.coverageOn()) {
            return bodies;
        }
        boolean guard = cx.guards.switchGuard(sw);
        Exec[] out = new Exec[bodies.length];
        for (int k = 0; k < bodies.length; k++) {
            SwitchCase c = sw.cases.get(k);
            String label = c.isDefault() ? "default" : "case " + (c.label() != null ? c.label() : ExprText.of(c.value()));
            out[k] = cx.probed(bodies[k], CoveragePoint.Kind.BRANCH, c.pos(), cx.branchName("switch"), label, guard);
        }
        return out;
    }

    /** With coverage and no default label, the probe of "no label matched" (nothing runs); else null. */
    private Exec noCaseProbe(Switch sw) {
        if (!cx.coverageOn()) {
            return null;
        }
        return cx.probed(null, CoveragePoint.Kind.BRANCH, sw.pos, cx.branchName("switch"), "no case",
                cx.guards.switchGuard(sw));
    }

    /** switch (t.apply().action_run): dispatch on the index of the action the table ran. */
    private Exec actionRunSwitch(Switch sw) {
        Call applyCall = (Call) ((Member) sw.subject).target;
        LExpr apply = ex.narrow(applyCall);
        TableDecl t = ((Type.ApplyResult) sw.subject.type).decl();
        TableRuntime rt = cx.tables.get(t);
        Exec[] byAction = new Exec[rt.actions.length];
        Exec[] bodies = probedCases(sw, caseBodies(sw));
        Exec dflt = null;
        for (int k = 0; k < sw.cases.size(); k++) {
            SwitchCase c = sw.cases.get(k);
            if (c.isDefault()) {
                dflt = bodies[k];
                continue;
            }
            for (int i = 0; i < rt.actions.length; i++) {
                if (t.actions.get(i).name().equals(c.label())) {
                    byAction[i] = bodies[k];
                }
            }
        }
        Exec fallback = dflt != null ? dflt : noCaseProbe(sw);
        return f -> {
            long r = apply.eval(f);
            if (f.flow != Frame.NORMAL) {
                return;
            }
            // the implicit NoAction default of a table without default_action is not one of its
            // actions (index -1): like any action without a label, it takes `default` or no case
            int ran = (int) (r >>> 1);
            Exec body = ran >= 0 ? byAction[ran] : null;
            if (body == null) {
                body = fallback;
            }
            if (body != null) {
                body.run(f);
            }
        };
    }

    /** switch on a bit<N>/int<N>/enum/error value with constant labels. */
    private Exec valueSwitch(Switch sw) {
        LExpr subject = ex.narrow(sw.subject);
        Exec[] bodies = probedCases(sw, caseBodies(sw));
        int n = 0;
        for (SwitchCase c : sw.cases) {
            if (!c.isDefault()) {
                n++;
            }
        }
        long[] values = new long[n];
        Exec[] targets = new Exec[n];
        Exec dflt = null;
        int k = 0;
        for (int i = 0; i < sw.cases.size(); i++) {
            SwitchCase c = sw.cases.get(i);
            if (c.isDefault()) {
                dflt = bodies[i];
            } else {
                values[k] = ex.narrow(c.value()).eval(null);
                targets[k++] = bodies[i];
            }
        }
        Exec fallback = dflt != null ? dflt : noCaseProbe(sw);
        return f -> {
            long v = subject.eval(f);
            if (f.flow != Frame.NORMAL) {
                return;
            }
            for (int i = 0; i < values.length; i++) {
                if (values[i] == v) {
                    targets[i].run(f);
                    return;
                }
            }
            if (fallback != null) {
                fallback.run(f);
            }
        };
    }
}
