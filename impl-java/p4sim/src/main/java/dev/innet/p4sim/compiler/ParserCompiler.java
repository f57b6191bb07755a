package dev.innet.p4sim.compiler;

import dev.innet.p4sim.coverage.CoveragePoint;
import dev.innet.p4sim.frontend.Ast.*;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.BitIO;
import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;
import dev.innet.p4sim.runtime.ValueSet;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiles a parser to a state machine over state indices. A packet that fails extract, lookahead,
 * advance, verify or select (no matching case) ends in reject with the error recorded, as in bmv2.
 */
final class ParserCompiler {
    static final int ACCEPT = -1;
    static final int REJECT = -2;
    /** State transitions per packet before the parser gives up with error.ParserTimeout. */
    static final int MAX_STEPS = 4096;

    private final CompileContext cx;
    private final ExprCompiler ex;
    private final StmtCompiler stmts;
    /** Compiles parser-local instantiations (sub-parsers, externs). */
    private final java.util.function.Consumer<Instantiation> instantiate;

    ParserCompiler(CompileContext cx, ExprCompiler ex, StmtCompiler stmts, java.util.function.Consumer<Instantiation> instantiate) {
        this.cx = cx;
        this.ex = ex;
        this.stmts = stmts;
        this.instantiate = instantiate;
    }

    @FunctionalInterface
    interface Next {
        int next(Frame f);
    }

    /** One state: its statements, then (unless they raised a flow signal) the index of the next state. */
    @FunctionalInterface
    interface Step {
        int step(Frame f);
    }

    Exec compile(ParserDecl pd) {
        boolean outer = cx.inParser;
        cx.inParser = true;
        try {
            return compileStates(pd);
        } finally {
            cx.inParser = outer;
        }
    }

    private Exec compileStates(ParserDecl pd) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < pd.states.size(); i++) {
            index.put(pd.states.get(i).name, i);
        }
        index.put("accept", ACCEPT);
        index.put("reject", REJECT);
        List<Stmt> variables = new java.util.ArrayList<>();
        for (Stmt local : pd.locals) {
            if (local instanceof Instantiation inst) {
                instantiate.accept(inst);
            } else {
                variables.add(local);
            }
        }
        Exec locals = stmts.block(variables);
        Step[] states = new Step[pd.states.size()];
        for (int i = 0; i < states.length; i++) {
            State st = pd.states.get(i);
            states[i] = cx.spec.parserState(stmts.block(st.stmts), transition(st, index, cx.errorCode("NoMatch")));
        }
        int start = index.get("start");
        int timeout = cx.errorCode("ParserTimeout");
        return f -> {
            locals.run(f);
            int state = start;
            int steps = 0;
            while (state >= 0) {
                if (++steps > MAX_STEPS) {
                    f.parserError = timeout;
                    f.flow = Frame.REJECT;
                    return;
                }
                state = states[state].step(f);
                if (f.flow != Frame.NORMAL) {
                    return;
                }
            }
            if (state == REJECT) {
                f.flow = Frame.REJECT; // explicit 'transition reject' keeps the current error
            }
        };
    }

    private Next transition(State st, Map<String, Integer> index, int noMatch) {
        if (st.next != null) {
            int target = index.get(st.next);
            return f -> target;
        }
        int nk = st.selectOn.size();
        LExpr[] keys = new LExpr[nk];
        int[] widths = new int[nk];
        for (int i = 0; i < nk; i++) {
            Expr k = st.selectOn.get(i);
            if (Layout.isWide(k.type)) {
                throw CompileError.unsupported(k.pos, "select on a key wider than 64 bits");
            }
            keys[i] = ex.narrow(k);
            widths[i] = ExprCompiler.width(k.type);
        }
        int nc = st.cases.size();
        // per case and key: value/mask (masked match) or lo/hi (range)
        long[][] lo = new long[nc][nk];
        long[][] hi = new long[nc][nk];
        boolean[][] isRange = new boolean[nc][nk];
        int[] targets = new int[nc];
        ValueSet[] sets = new ValueSet[nc];
        boolean anySet = false;
        for (int c = 0; c < nc; c++) {
            SelectCase sc = st.cases.get(c);
            targets[c] = index.get(sc.next());
            List<Expr> ks = sc.keysets();
            if (ks.size() == 1 && ks.get(0).type instanceof Type.ValueSet) {
                // matched at run time against the control plane's values (lo/hi stay 0: not a catch-all)
                sets[c] = (ValueSet) cx.externs.get(((Name) ks.get(0)).decl);
                isRange[c][0] = true;
                anySet = true;
                continue;
            }
            boolean all = ks.size() == 1 && (ks.get(0) instanceof DefaultKey || ks.get(0) instanceof DontCare);
            for (int k = 0; k < nk; k++) {
                long full = BitIO.mask(widths[k]);
                Expr e = all ? ks.get(0) : ks.get(k);
                switch (e) {
                    case DefaultKey d -> {
                        lo[c][k] = 0;
                        hi[c][k] = 0;
                    }
                    case DontCare d -> {
                        lo[c][k] = 0;
                        hi[c][k] = 0;
                    }
                    case Mask m -> {
                        long mask = value(m.mask, widths[k]);
                        lo[c][k] = value(m.value, widths[k]) & mask;
                        hi[c][k] = mask;
                    }
                    case Range r -> {
                        isRange[c][k] = true;
                        lo[c][k] = value(r.lo, widths[k]);
                        hi[c][k] = value(r.hi, widths[k]);
                    }
                    default -> {
                        lo[c][k] = value(e, widths[k]);
                        hi[c][k] = full;
                    }
                }
            }
        }
        long[] vals = new long[nk];
        if (anySet) {
            return selectWithValueSets(st, keys, vals, widths, lo, hi, isRange, sets, targets, noMatch);
        }
        if (cx.coverageOn()) {
            return probedSelect(st, keys, vals, lo, hi, isRange, targets, noMatch);
        }
        return f -> {
            for (int k = 0; k < nk; k++) {
                vals[k] = keys[k].eval(f);
            }
            int c = matchingCase(vals, lo, hi, isRange);
            if (c >= 0) {
                return targets[c];
            }
            f.parserError = noMatch;
            return REJECT;
        };
    }

    /**
     * A select with value-set cases: such a case matches when the keys, concatenated (first key most
     * significant), are a member of its set. Other cases match as usual; with coverage each case
     * and "no case matched" are points.
     */
    private Next selectWithValueSets(State st, LExpr[] keys, long[] vals, int[] widths, long[][] lo, long[][] hi,
                                     boolean[][] isRange, ValueSet[] sets, int[] targets, int noMatch) {
        int[] casePoints = null;
        int noMatchPoint = -1;
        dev.innet.p4sim.coverage.CoverageRecorder rec = cx.coverage;
        if (cx.coverageOn()) {
            boolean guard = cx.guards.selectGuard(st);
            String name = cx.branchName("select in state " + st.name);
            casePoints = new int[targets.length];
            for (int c = 0; c < targets.length; c++) {
                SelectCase sc = st.cases.get(c);
                casePoints[c] = cx.point(CoveragePoint.Kind.BRANCH, sc.pos(), name, "case " + (c + 1) + " -> " + sc.next(), guard);
            }
            noMatchPoint = cx.point(CoveragePoint.Kind.BRANCH, st.transitionPos, name, "no case matched -> reject", guard);
        }
        int[] points = casePoints;
        int missPoint = noMatchPoint;
        return f -> {
            long concat = 0;
            for (int k = 0; k < keys.length; k++) {
                vals[k] = keys[k].eval(f);
                concat = (widths[k] == 64 ? 0 : concat << widths[k]) | vals[k];
            }
            for (int c = 0; c < targets.length; c++) {
                boolean ok;
                if (sets[c] != null) {
                    ok = sets[c].contains(concat);
                } else {
                    ok = true;
                    for (int k = 0; k < vals.length && ok; k++) {
                        ok = isRange[c][k]
                                ? Long.compareUnsigned(vals[k], lo[c][k]) >= 0 && Long.compareUnsigned(vals[k], hi[c][k]) <= 0
                                : (vals[k] & hi[c][k]) == lo[c][k];
                    }
                }
                if (ok) {
                    if (points != null) {
                        rec.hit(points[c]);
                    }
                    return targets[c];
                }
            }
            if (points != null) {
                rec.hit(missPoint);
            }
            f.parserError = noMatch;
            return REJECT;
        };
    }

    /** The first select case whose keysets all match {@code vals}, or -1. */
    private static int matchingCase(long[] vals, long[][] lo, long[][] hi, boolean[][] isRange) {
        for (int c = 0; c < lo.length; c++) {
            boolean ok = true;
            for (int k = 0; k < vals.length && ok; k++) {
                if (isRange[c][k]) {
                    ok = Long.compareUnsigned(vals[k], lo[c][k]) >= 0 && Long.compareUnsigned(vals[k], hi[c][k]) <= 0;
                } else {
                    ok = (vals[k] & hi[c][k]) == lo[c][k];
                }
            }
            if (ok) {
                return c;
            }
        }
        return -1;
    }

    /** The select with a coverage point per case, and one for "no case matched" unless a case matches everything. */
    private Next probedSelect(State st, LExpr[] keys, long[] vals, long[][] lo, long[][] hi, boolean[][] isRange,
                              int[] targets, int noMatch) {
        boolean guard = cx.guards.selectGuard(st);
        String name = cx.branchName("select in state " + st.name);
        int[] casePoints = new int[targets.length];
        boolean catchAll = false;
        for (int c = 0; c < targets.length; c++) {
            SelectCase sc = st.cases.get(c);
            casePoints[c] = cx.point(CoveragePoint.Kind.BRANCH, sc.pos(), name, "case " + (c + 1) + " -> " + sc.next(), guard);
            boolean all = true;
            for (int k = 0; k < keys.length; k++) {
                all &= !isRange[c][k] && hi[c][k] == 0;
            }
            catchAll |= all;
        }
        int noMatchPoint = catchAll ? -1
                : cx.point(CoveragePoint.Kind.BRANCH, st.transitionPos, name, "no case matched -> reject", guard);
        dev.innet.p4sim.coverage.CoverageRecorder rec = cx.coverage;
        return f -> {
            for (int k = 0; k < keys.length; k++) {
                vals[k] = keys[k].eval(f);
            }
            int c = matchingCase(vals, lo, hi, isRange);
            if (c >= 0) {
                rec.hit(casePoints[c]);
                return targets[c];
            }
            if (noMatchPoint >= 0) {
                rec.hit(noMatchPoint);
            }
            f.parserError = noMatch;
            return REJECT;
        };
    }

    private long value(Expr e, int width) {
        BigInteger v = ex.constant(e);
        if (v == null) {
            throw new CompileError(e.pos, "select case must be a compile-time constant");
        }
        if (e.type instanceof Type.Bool) {
            return v.longValue();
        }
        return ExprCompiler.words(v, width)[0];
    }
}
