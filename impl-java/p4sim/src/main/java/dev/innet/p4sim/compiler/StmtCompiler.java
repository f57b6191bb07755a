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
            case Instantiation inst -> throw CompileError.unsupported(inst.pos, "instantiation inside a block");
            default -> throw CompileError.unsupported(s.pos, s.getClass().getSimpleName());
        }
    }

    private Exec varDecl(VarDecl v) {
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

    private Exec assign(Assign a) {
        if (a.lhs instanceof Slice sl) {
            Place p = ex.place(sl.target);
            int lo = sl.loBit;
            int w = sl.hiBit - sl.loBit + 1;
            if (w > 64) {
                throw CompileError.unsupported(a.pos, "assignment to a slice wider than 64 bits");
            }
            LExpr v = ex.narrow(a.rhs);
            long mask = BitIO.mask(w);
            if (Layout.isWide(p.type())) {
                int n = Layout.slots(p.type());
                return f -> {
                    long x = v.eval(f);
                    int slot = p.slot(f);
                    Wide.clearBits(f.s, slot, n, lo, w);
                    Wide.orBits(f.s, slot, n, lo, w, x);
                };
            }
            long field = mask << lo;
            return f -> {
                long x = v.eval(f);
                int slot = p.slot(f);
                f.s[slot] = (f.s[slot] & ~field) | ((x & mask) << lo);
            };
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
            Exec body = byAction[(int) (r >>> 1)];
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
