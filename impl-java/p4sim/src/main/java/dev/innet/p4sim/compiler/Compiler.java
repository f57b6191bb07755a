package dev.innet.p4sim.compiler;

import dev.innet.switchapi.ControlException;
import dev.innet.p4sim.control.EntryEncoder;
import dev.innet.p4sim.coverage.CoveragePoint;
import dev.innet.switchapi.Match;
import dev.innet.p4sim.frontend.Ast;
import dev.innet.p4sim.frontend.Ast.*;
import dev.innet.p4sim.frontend.CheckedProgram;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.frontend.Token;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.ActionProfileRuntime;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.ArchState;
import dev.innet.p4sim.runtime.CounterArray;
import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.RandomSource;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.runtime.TableRuntime;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Code generator: turns a checked v1model program into a {@link CompiledProgram} of closures over a
 * frame whose layout is fixed at compile time (P4 has no recursion, so every variable, parameter and
 * temporary gets its own slot). Each call creates fresh tables, registers and counters, so one
 * checked program can back many independent switches.
 */
public final class Compiler {
    /** Table capacity when the program gives no {@code size} (p4c's default). */
    static final int DEFAULT_TABLE_SIZE = 1024;

    private final CompileContext cx;
    private final ExprCompiler ex;
    private final CallCompiler calls;
    private final StmtCompiler stmts;

    private Compiler(CheckedProgram prog, RandomSource random, boolean specialize, boolean coverage) {
        this.cx = new CompileContext(prog, new ArchState(random), specialize, coverage);
        this.ex = new ExprCompiler(cx);
        this.calls = new CallCompiler(cx, ex);
        ex.calls = calls;
        this.stmts = new StmtCompiler(cx, ex, calls);
    }

    /** {@code specialize}: one class per combinator node (fast packets, ~100 ms per instance) or plain closures. */
    public static CompiledProgram compile(CheckedProgram prog, RandomSource random, boolean specialize) {
        return compile(prog, random, specialize, false);
    }

    /**
     * {@code coverage}: also count tables hit and missed, actions run and branch outcomes
     * ({@link CompiledProgram#coverage}); off, not one probe is compiled in.
     */
    public static CompiledProgram compile(CheckedProgram prog, RandomSource random, boolean specialize, boolean coverage) {
        return new Compiler(prog, random, specialize, coverage).run();
    }

    private CompiledProgram run() {
        CheckedProgram p = cx.prog;
        cx.hdrBase = cx.layout.alloc(p.headersType());
        cx.metaBase = cx.layout.alloc(p.metadataType());
        cx.smBase = cx.layout.alloc(cx.sm);
        bindParams(p.parser().params, new int[] {-1, cx.hdrBase, cx.metaBase, cx.smBase});
        bindParams(p.verifyChecksum().params, new int[] {cx.hdrBase, cx.metaBase});
        bindParams(p.ingress().params, new int[] {cx.hdrBase, cx.metaBase, cx.smBase});
        bindParams(p.egress().params, new int[] {cx.hdrBase, cx.metaBase, cx.smBase});
        bindParams(p.computeChecksum().params, new int[] {cx.hdrBase, cx.metaBase});
        bindParams(p.deparser().params, new int[] {-1, cx.hdrBase});

        // extern instances declared at top level: one object shared by every block, named without a prefix
        for (Decl d : p.ast().decls()) {
            if (d instanceof TopInstantiation ti && ti.inst.type instanceof Type.Extern) {
                instantiate(ti.inst);
            }
        }
        Exec constants = structConstants(p);
        for (FunctionDecl fn : p.functions()) {
            compileFunction(fn);
        }
        for (ActionDecl a : p.globalActions()) {
            createAction(a);
        }
        cx.blockName = p.parser().name;
        List<Expr> mainArgs = mainInstance(p).inst.args;
        bindCtorArgs(p.parser().ctorParams, ((Call) mainArgs.get(0)).args);
        Exec parser = new ParserCompiler(cx, ex, stmts, this::instantiate).compile(p.parser());
        if (constants != null) {
            parser = cx.spec.block(new Exec[] {constants, parser});
        }
        Exec verify = control(p.verifyChecksum(), mainArgs.get(1));
        Exec ingress = control(p.ingress(), mainArgs.get(2));
        Exec egress = control(p.egress(), mainArgs.get(3));
        Exec compute = control(p.computeChecksum(), mainArgs.get(4));
        Exec deparser = control(p.deparser(), mainArgs.get(5));
        cx.blockName = "";
        Map<String, dev.innet.p4sim.runtime.ValueSet> valueSets = publicNames(cx.arch.valueSets);
        cx.arch.valueSets.clear();
        cx.arch.valueSets.putAll(valueSets);
        Map<String, Integer> smFields = new LinkedHashMap<>();
        for (Type.FieldT f : cx.sm.fields()) {
            smFields.put(f.name(), Layout.fieldOffset(cx.sm, f.name()));
        }
        return new CompiledProgram(cx.layout.size(), cx.hdrBase, Layout.slots(p.headersType()), cx.metaBase,
                Layout.slots(p.metadataType()), cx.smBase, Layout.slots(cx.sm), smFields,
                parser, verify, ingress, egress, compute, deparser, cx.arch,
                publicNames(cx.tablesByName), publicNames(cx.registersByName), publicNames(cx.countersByName), publicNames(cx.metersByName),
                allFieldLists(p.metadataType()), List.copyOf(p.errorType().members()), cx.coverage, cx.memories);
    }

    /** The memory an {@code @innet_memory("NAME")} annotation places a register array in, or null. */
    private static String memoryIn(List<Ast.Annotation> annotations) {
        String memory = null;
        for (Ast.Annotation a : annotations) {
            if (!a.name().equals("innet_memory")) {
                continue;
            }
            if (memory != null) {
                throw new CompileError(a.pos(), "@innet_memory given twice on one register");
            }
            if (a.body().size() != 1 || a.body().get(0).kind() != Token.Kind.STRING
                    || a.body().get(0).text().isEmpty()) {
                throw new CompileError(a.pos(), "@innet_memory takes one non-empty string, the memory's name");
            }
            memory = a.body().get(0).text();
        }
        return memory;
    }

    /**
     * Top-level struct and header constants ({@code const pair_t P = {1, 2};}) live in slots of their
     * own, written at the start of every parse (nothing else writes them); null when there are none,
     * so programs without them run exactly as before.
     */
    private Exec structConstants(CheckedProgram p) {
        List<Exec> init = new ArrayList<>();
        for (Decl d : p.ast().decls()) {
            if (d instanceof ConstDecl c && (c.value.type instanceof Type.Struct || c.value.type instanceof Type.Header)) {
                int base = cx.layout.alloc(c.value.type);
                cx.storage.put(c, base);
                init.add(calls.assign(new Place(base, null, c.value.type), c.value));
            }
        }
        return init.isEmpty() ? null : cx.spec.block(init.toArray(Exec[]::new));
    }

    private void bindParams(List<Param> params, int[] bases) {
        for (int i = 0; i < params.size(); i++) {
            if (bases[i] >= 0) {
                cx.storage.put(params.get(i), bases[i]);
            }
        }
    }

    /** Objects are known by their qualified name ({@code MyIngress.t}) and, when unambiguous, their short name. */
    private static <T> Map<String, T> publicNames(Map<String, T> qualified) {
        Map<String, T> out = new LinkedHashMap<>(qualified);
        Map<String, Integer> shortCount = new HashMap<>();
        for (String q : qualified.keySet()) {
            shortCount.merge(q.substring(q.lastIndexOf('.') + 1), 1, Integer::sum);
        }
        for (Map.Entry<String, T> e : qualified.entrySet()) {
            String s = e.getKey().substring(e.getKey().lastIndexOf('.') + 1);
            if (shortCount.get(s) == 1) {
                out.putIfAbsent(s, e.getValue());
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- controls

    private static TopInstantiation mainInstance(CheckedProgram p) {
        for (Decl d : p.ast().decls()) {
            if (d instanceof TopInstantiation ti && !(ti.inst.type instanceof Type.Extern)) {
                return ti;
            }
        }
        throw new IllegalStateException("checked program without a package instance");
    }

    /**
     * Constructor parameters are compile-time constants of each instance: their values, computed
     * where the instance is declared, stand in for them while the instance is compiled.
     */
    private void bindCtorArgs(List<Param> ctorParams, List<Expr> args) {
        for (int i = 0; i < ctorParams.size(); i++) {
            if (args.get(i) instanceof Name n && n.decl instanceof Instantiation controlArg) {
                // a control instance passed to a control-typed parameter: applying the parameter applies
                // that (already compiled) instance, so every block it is passed to shares its state
                Object compiled = cx.externs.get(controlArg);
                if (!(compiled instanceof ControlInstance)) {
                    throw new CompileError(n.pos, "internal: control instance '" + n.name + "' not compiled before its use");
                }
                cx.externs.put(ctorParams.get(i), compiled);
                continue;
            }
            BigInteger v = ex.constant(args.get(i));
            if (v == null) {
                throw new CompileError(args.get(i).pos, "constructor argument for '" + ctorParams.get(i).name
                        + "' is not a compile-time constant");
            }
            cx.prog.constValues().put(ctorParams.get(i), v);
        }
    }

    /** Extern parameters of a sub-parser or sub-control instance stand for the externs its applies pass. */
    private void bindExternParams(Instantiation inst) {
        for (Map.Entry<Param, Object> e : inst.externArgs.entrySet()) {
            Object ext = cx.externs.get(e.getValue());
            if (ext == null) {
                throw new CompileError(inst.pos, "internal: extern argument for '" + e.getKey().name + "' not compiled");
            }
            cx.externs.put(e.getKey(), ext);
        }
    }

    private Exec control(ControlDecl cd, Expr instance) {
        bindCtorArgs(cd.ctorParams, ((Call) instance).args);
        cx.blockName = cd.name;
        Exec[] parts = controlParts(cd);
        return cx.spec.control(parts[0], parts[1]);
    }

    /** Compiles a control's locals (in order) and apply block: {init, body}. */
    private Exec[] controlParts(ControlDecl cd) {
        List<Exec> init = new ArrayList<>();
        for (Node local : cd.locals) {
            switch (local) {
                case Instantiation inst -> instantiate(inst);
                case VarDecl v -> init.add(stmts.compile(v));
                case ActionDecl a -> createAction(a);
                case TableDecl t -> createTable(t);
                default -> throw CompileError.unsupported(local.pos, "control local");
            }
        }
        return new Exec[] {cx.spec.block(init.toArray(Exec[]::new)), stmts.block(cd.apply.stmts)};
    }

    /**
     * A control instantiated inside another: compiled once per instance, with its own parameter
     * slots, locals, tables and externs (named {@code Outer.instance.object}, as bmv2 does). A
     * {@code return} ends the instance; an {@code exit} propagates to the enclosing controls.
     */
    private ControlInstance controlInstance(Instantiation inst, ControlDecl cd) {
        String outer = cx.blockName;
        int[] paramBases = new int[cd.params.size()];
        for (int i = 0; i < paramBases.length; i++) {
            if (cd.params.get(i).type instanceof Type.Extern) {
                paramBases[i] = -1; // bound to the extern instance the applies pass
                continue;
            }
            paramBases[i] = cx.layout.alloc(cd.params.get(i).type);
            cx.storage.put(cd.params.get(i), paramBases[i]);
        }
        bindCtorArgs(cd.ctorParams, inst.args);
        bindExternParams(inst);
        cx.blockName = cx.qualify(inst.name);
        Exec[] parts = controlParts(cd);
        cx.blockName = outer;
        Exec body = cx.spec.block(parts);
        return new ControlInstance(cd, paramBases, body);
    }

    /** A parser instantiated inside another: its own parameter slots and state machine. */
    private ParserInstance parserInstance(Instantiation inst, ParserDecl pd) {
        String outer = cx.blockName;
        int[] paramBases = new int[pd.params.size()];
        for (int i = 0; i < paramBases.length; i++) {
            Param p = pd.params.get(i);
            if (p.type instanceof Type.Extern) {
                paramBases[i] = -1;
                continue;
            }
            paramBases[i] = cx.layout.alloc(p.type);
            cx.storage.put(p, paramBases[i]);
        }
        bindCtorArgs(pd.ctorParams, inst.args);
        bindExternParams(inst);
        cx.blockName = cx.qualify(inst.name);
        Exec body = new ParserCompiler(cx, ex, stmts, this::instantiate).compile(pd);
        cx.blockName = outer;
        return new ParserInstance(pd, paramBases, body);
    }

    record ParserInstance(ParserDecl decl, int[] paramBases, Exec body) { }

    /** The compiled body of a control instance and where its parameters live. */
    record ControlInstance(ControlDecl decl, int[] paramBases, Exec body) { }

    private void instantiate(Instantiation inst) {
        if (inst.type instanceof Type.Block b && b.decl() instanceof ParserDecl pd) {
            cx.externs.put(inst, parserInstance(inst, pd));
            return;
        }
        if (inst.type instanceof Type.Block b && b.decl() instanceof ControlDecl cd) {
            cx.externs.put(inst, controlInstance(inst, cd));
            return;
        }
        if (inst.type instanceof Type.ValueSet vs) {
            String name = cx.controlPlaneName(inst.name, inst.annotations);
            dev.innet.p4sim.runtime.ValueSet set = new dev.innet.p4sim.runtime.ValueSet(name, vs.element().bitWidth(), vs.size());
            cx.externs.put(inst, set);
            cx.arch.valueSets.put(name, set);
            return;
        }
        Type.Extern t = (Type.Extern) inst.type;
        String name = cx.controlPlaneName(inst.name, inst.annotations);
        switch (t.decl().name) {
            case "register" -> {
                int width = ExprCompiler.width(t.args().get(0));
                int size = ex.constant(inst.args.get(0)).intValue();
                RegisterArray r = new RegisterArray(name, width, size);
                cx.externs.put(inst, r);
                cx.registersByName.put(name, r);
                String memory = memoryIn(inst.annotations);
                if (memory != null) {
                    cx.registerMemory.put(r, cx.memories.idOf(memory));
                }
            }
            case "counter" -> {
                int size = ex.constant(inst.args.get(0)).intValue();
                CounterArray.Kind kind = counterKind(inst.args.get(1));
                CounterArray c = new CounterArray(name, size, kind);
                cx.externs.put(inst, c);
                cx.countersByName.put(name, c);
            }
            case "direct_counter" -> cx.externs.put(inst, name);
            case "meter" -> {
                int size = ex.constant(inst.args.get(0)).intValue();
                dev.innet.p4sim.runtime.MeterArray m = new dev.innet.p4sim.runtime.MeterArray(name, size, meterCountsBytes(inst.args.get(1)));
                cx.externs.put(inst, m);
                cx.metersByName.put(name, m);
            }
            case "direct_meter" -> {
                CompileContext.DirectMeter dm = new CompileContext.DirectMeter(name, cx.layout.allocRaw(1));
                cx.externs.put(inst, dm);
                cx.directMetersBySourceName.put(cx.qualify(inst.name), dm);
            }
            case "action_profile", "action_selector" -> {
                boolean selector = t.decl().name.equals("action_selector");
                int size = ex.constant(inst.args.get(selector ? 1 : 0)).intValue();
                ActionProfileRuntime ap = new ActionProfileRuntime(name, size, selector);
                cx.externs.put(inst, ap);
                cx.arch.actionProfiles.put(name, ap);
            }
            default -> throw CompileError.unsupported(inst.pos, "extern " + t.decl().name);
        }
    }

    private boolean meterCountsBytes(Expr e) {
        Type.Enum en = (Type.Enum) e.type;
        return en.members().get(ex.constant(e).intValue()).equals("bytes");
    }

    private CounterArray.Kind counterKind(Expr e) {
        Type.Enum en = (Type.Enum) e.type;
        String member = en.members().get(ex.constant(e).intValue());
        return switch (member) {
            case "packets" -> CounterArray.Kind.PACKETS;
            case "bytes" -> CounterArray.Kind.BYTES;
            default -> CounterArray.Kind.PACKETS_AND_BYTES;
        };
    }

    // ---------------------------------------------------------------- functions

    /** Functions are not recursive, so one set of parameter and return slots per function suffices. */
    private void compileFunction(FunctionDecl fn) {
        int[] bases = new int[fn.params.size()];
        for (int i = 0; i < bases.length; i++) {
            bases[i] = cx.layout.alloc(fn.params.get(i).type);
            cx.storage.put(fn.params.get(i), bases[i]);
        }
        int ret = fn.ret instanceof Type.Void ? -1 : cx.layout.alloc(fn.ret);
        cx.returnPlace = ret < 0 ? null : new Place(ret, null, fn.ret);
        Exec body = stmts.block(fn.body.stmts);
        cx.returnPlace = null;
        cx.functions.put(fn, new CompileContext.FunctionRuntime(fn, bases, ret, body));
    }

    // ---------------------------------------------------------------- actions

    private void createAction(ActionDecl a) {
        String name = cx.controlPlaneName(a.name, a.annotations);
        List<String> names = new ArrayList<>();
        List<Integer> widths = new ArrayList<>();
        int dataBase = -1;
        for (Param p : a.params) {
            int base = cx.layout.alloc(p.type);
            cx.storage.put(p, base);
            if (p.dir == Direction.NONE) {
                if (dataBase < 0) {
                    dataBase = base;
                }
                names.add(p.controlPlaneName != null ? p.controlPlaneName : p.name);
                widths.add(ExprCompiler.width(p.type));
            }
        }
        ActionRuntime ar = new ActionRuntime(name, names.toArray(String[]::new),
                widths.stream().mapToInt(Integer::intValue).toArray(), dataBase);
        cx.actions.put(a, ar);
        cx.actionsByName.put(cx.qualify(a.name), ar);
        // an action can only call actions declared before it, so its body can be compiled right away
        Exec body = stmts.block(a.body.stmts);
        if (cx.coverageOn() && !CompileContext.isPrelude(a.pos)) {
            // in the body, so a run from a table and a direct call both count
            body = cx.probed(body, CoveragePoint.Kind.ACTION, a.pos, name, "run", false);
        }
        ar.body = body;
    }

    // ---------------------------------------------------------------- tables

    /** The keys a table matches on: all but the {@code selector} ones, which only feed an action selector's hash. */
    static List<KeyElement> matchKeys(TableDecl t) {
        return t.keys.stream().filter(k -> !k.matchKind().equals("selector")).toList();
    }

    private void createTable(TableDecl t) {
        String name = cx.controlPlaneName(t.name, t.annotations);
        List<KeyElement> keys = matchKeys(t);
        int n = keys.size();
        String[] keyNames = new String[n];
        TableRuntime.MatchKind[] kinds = new TableRuntime.MatchKind[n];
        int[] widths = new int[n];
        for (int i = 0; i < n; i++) {
            KeyElement k = keys.get(i);
            keyNames[i] = k.name() != null ? k.name() : ExprText.of(k.expr());
            kinds[i] = TableRuntime.MatchKind.valueOf(k.matchKind().toUpperCase());
            widths[i] = ExprCompiler.width(k.expr().type);
        }
        ActionRuntime[] actions = new ActionRuntime[t.actions.size()];
        for (int i = 0; i < actions.length; i++) {
            actions[i] = tableAction(t.actions.get(i));
        }
        int size = t.size == null ? DEFAULT_TABLE_SIZE : ex.constant(t.size).intValue();
        TableRuntime rt = new TableRuntime(name, keyNames, kinds, widths, actions, size);
        for (int i = 0; i < actions.length; i++) {
            rt.actionScopes[i] = t.actions.get(i).scope();
        }
        rt.packetLengthSlot = cx.smField("packet_length");
        if (t.implementation != null) {
            linkActionProfile(t, rt);
        }
        rt.directCounter = t.directCounter != null;
        rt.arch = cx.arch;
        if (t.directMeter != null) {
            CompileContext.DirectMeter meter = cx.directMetersBySourceName.get(cx.qualify(t.directMeter));
            if (meter != null) {
                rt.directMeterName = meter.name();
                rt.meterColorSlot = meter.colorSlot();
            }
            for (Map.Entry<Object, Object> e : cx.externs.entrySet()) {
                if (e.getValue() == meter && e.getKey() instanceof Instantiation inst) {
                    rt.meterBytes = meterCountsBytes(inst.args.get(0));
                }
            }
            if (rt.meterColorSlot < 0) {
                throw new CompileError(t.pos, "internal: direct_meter " + t.directMeter + " not compiled");
            }
        }
        if (t.defaultAction != null) {
            ActionRuntime da = listed(t, actions, t.defaultAction);
            rt.setDefault(da, actionData(da, t.defaultAction.args()));
            rt.defaultConst = t.defaultConst;
        } else {
            ActionRuntime noAction = cx.actionsByName.get("NoAction");
            rt.setDefault(noAction, new long[0]);
        }
        if (t.entries != null) {
            installConstEntries(t, rt);
            rt.constEntries = true;
        }
        cx.tables.put(t, rt);
        cx.tablesByName.put(name, rt);
        if (cx.coverageOn()) {
            // a keyless table can only miss: no hit point
            int hit = n == 0 ? -1 : cx.point(CoveragePoint.Kind.TABLE, t.pos, name, "hit", false);
            int miss = cx.point(CoveragePoint.Kind.TABLE, t.pos, name, "miss", false);
            cx.tablePoints.put(rt, new int[] {hit, miss});
        }
    }

    /** Connects a table to its action_profile/action_selector; a selector also hashes the selector keys. */
    private void linkActionProfile(TableDecl t, TableRuntime rt) {
        Instantiation inst = t.inlineImplementation;
        if (inst != null) {
            instantiate(inst);
        } else {
            for (Object k : cx.externs.keySet()) {
                if (k instanceof Instantiation i && i.name.equals(t.implementation) && cx.externs.get(k) instanceof ActionProfileRuntime) {
                    inst = i;
                }
            }
        }
        if (inst == null || !(cx.externs.get(inst) instanceof ActionProfileRuntime ap)) {
            throw new CompileError(t.pos, "internal: implementation " + t.implementation + " of table " + t.name + " not compiled");
        }
        rt.profile = ap;
        if (ap.selector) {
            List<Expr> selectorKeys = t.keys.stream().filter(k -> k.matchKind().equals("selector")).map(KeyElement::expr).toList();
            rt.selectorHash = calls.selectorHash(inst.args.get(0), new ListExpr(t.pos, selectorKeys));
        }
    }

    /** The runtime of the action {@code ref} names as the table lists it (with its bound arguments, if any). */
    private ActionRuntime listed(TableDecl t, ActionRuntime[] actions, ActionRef ref) {
        for (int i = 0; i < t.actions.size(); i++) {
            if (t.actions.get(i).name().equals(ref.name())) {
                return actions[i];
            }
        }
        return actionRuntime(ref);
    }

    /**
     * An action as a table lists it. With arguments for its directional parameters
     * ({@code actions = { drop(smeta); }}) it is a runtime of its own for this table: copy-in of those
     * arguments, the action's body, copy-out, like a direct call; the control-plane parameters are
     * the same slots as the action's.
     */
    private ActionRuntime tableAction(ActionRef ref) {
        ActionRuntime base = actionRuntime(ref);
        if (ref.args().isEmpty()) {
            return base;
        }
        ActionDecl decl = null;
        for (Map.Entry<ActionDecl, ActionRuntime> e : cx.actions.entrySet()) {
            if (e.getValue() == base) {
                decl = e.getKey();
            }
        }
        List<Exec> in = new ArrayList<>();
        List<Exec> out = new ArrayList<>();
        for (int i = 0; i < ref.args().size(); i++) {
            Param p = decl.params.get(i);
            Place pp = new Place(cx.storage.get(p), null, p.type);
            Expr arg = ref.args().get(i);
            in.add(p.dir == Direction.OUT || arg instanceof DontCare ? CallCompiler.clear(pp) : calls.assign(pp, arg));
            if ((p.dir == Direction.OUT || p.dir == Direction.INOUT) && !(arg instanceof DontCare)) {
                out.add(calls.copyOut(pp, arg));
            }
        }
        ActionRuntime bound = new ActionRuntime(base.name, base.paramNames, base.paramWidths, base.dataBase);
        bound.body = cx.spec.actionCall(cx.spec.block(in.toArray(Exec[]::new)), base.body,
                cx.spec.block(out.toArray(Exec[]::new)));
        return bound;
    }

    private ActionRuntime actionRuntime(ActionRef ref) {
        ActionRuntime local = cx.actionsByName.get(cx.qualify(ref.name()));
        if (local != null) {
            return local;
        }
        ActionRuntime global = cx.actionsByName.get(ref.name());
        if (global == null) {
            throw new CompileError(ref.pos(), "internal: action " + ref.name() + " not compiled");
        }
        return global;
    }

    private long[] actionData(ActionRuntime a, List<Expr> args) {
        List<BigInteger> vals = new ArrayList<>();
        // the control-plane parameters are the last ones; directional arguments before them are bindings
        for (Expr e : args.subList(args.size() - a.paramNames.length, args.size())) {
            BigInteger v = ex.constant(e);
            int w = ExprCompiler.width(e.type);
            vals.add(v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(w)) : v);
        }
        return EntryEncoder.encodeArgs(a, vals);
    }

    /**
     * const entries: for priority tables the first entry gets the highest priority, as in bmv2. An entry
     * with p4c's trailing {@code @priority(N)} gets bmv2's priority N, and in such a table the others get
     * their 1-based position (the numbering that reproduces p4c's table-entries-priority-bmv2 test);
     * bmv2 prefers the smaller number, so the P4Runtime priority (larger wins) stored here is the
     * largest of those numbers plus one, minus it.
     */
    private void installConstEntries(TableDecl t, TableRuntime rt) {
        int count = t.entries.size();
        boolean bmv2Numbers = t.entries.stream().anyMatch(e -> e.bmv2Priority() != null);
        long[] bmv2Priorities = new long[count];
        long largestBmv2 = 0;
        for (int i = 0; bmv2Numbers && i < count; i++) {
            Expr annotated = t.entries.get(i).bmv2Priority();
            bmv2Priorities[i] = annotated != null ? ex.constant(annotated).longValueExact() : i + 1;
            largestBmv2 = Math.max(largestBmv2, bmv2Priorities[i]);
        }
        for (int i = 0; i < count; i++) {
            Entry e = t.entries.get(i);
            List<Match> match = new ArrayList<>();
            List<Expr> keys = e.keys();
            boolean all = keys.size() == 1 && (keys.get(0) instanceof DefaultKey || keys.get(0) instanceof DontCare)
                    && rt.kinds.length != 1;
            for (int k = 0; k < rt.kinds.length; k++) {
                match.add(keyMatch(all ? keys.get(0) : keys.get(k), rt.kinds[k], rt.widths[k]));
            }
            int priority = 0;
            if (rt.usesPriority) {
                if (bmv2Numbers) {
                    priority = Math.toIntExact(largestBmv2 + 1 - bmv2Priorities[i]);
                } else {
                    priority = e.priority() != null ? ex.constant(e.priority()).intValue() : count - i;
                }
            }
            try {
                EntryEncoder.Encoded enc = EntryEncoder.encodeMatch(rt, match, priority);
                ActionRuntime a = listed(t, rt.actions, e.action());
                if (rt.find(enc.value(), enc.mask(), priority) != null) {
                    throw new ControlException("duplicate entry");
                }
                rt.insert(enc.value(), enc.mask(), priority, enc.prefixLength(), a, actionData(a, e.action().args()));
            } catch (ControlException bad) {
                throw new CompileError(e.pos(), "invalid entry in table " + t.name + ": " + bad.getMessage());
            }
        }
    }

    private Match keyMatch(Expr k, TableRuntime.MatchKind kind, int width) {
        switch (k) {
            case DefaultKey d -> {
                return new Match.Wildcard();
            }
            case DontCare d -> {
                return new Match.Wildcard();
            }
            case Ast.Mask m -> {
                BigInteger v = unsigned(ex.constant(m.value), width);
                BigInteger mask = unsigned(ex.constant(m.mask), width);
                if (kind == TableRuntime.MatchKind.LPM) {
                    int prefix = mask.bitCount();
                    BigInteger expect = BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE)
                            .shiftRight(width - prefix).shiftLeft(width - prefix);
                    if (!mask.equals(expect)) {
                        throw new CompileError(k.pos, "lpm mask is not a prefix mask");
                    }
                    return new Match.Lpm(v.and(mask), prefix);
                }
                return new Match.Ternary(v.and(mask), mask);
            }
            case Ast.Range r -> {
                return new Match.Range(unsigned(ex.constant(r.lo), width), unsigned(ex.constant(r.hi), width));
            }
            default -> {
                return new Match.Exact(unsigned(ex.constant(k), width));
            }
        }
    }

    private static BigInteger unsigned(BigInteger v, int width) {
        return v.signum() < 0 ? v.add(BigInteger.ONE.shiftLeft(width)) : v;
    }

    // ---------------------------------------------------------------- field lists

    /** The {@code @field_list} lists and those made from the data of resubmit, recirculate and clone3 calls. */
    private Map<Integer, List<int[]>> allFieldLists(Type meta) {
        Map<Integer, List<int[]>> out = fieldLists(meta);
        out.putAll(cx.dataFieldLists);
        return out;
    }

    /** {@code @field_list(n, ...)} annotations on user metadata fields: slot ranges to preserve per list id. */
    private Map<Integer, List<int[]>> fieldLists(Type meta) {
        Map<Integer, List<int[]>> out = new TreeMap<>();
        collectFieldLists(meta, cx.metaBase, out);
        return out;
    }

    private void collectFieldLists(Type t, int base, Map<Integer, List<int[]>> out) {
        if (!(t instanceof Type.Struct s)) {
            return;
        }
        for (Type.FieldT f : s.fields()) {
            int fb = base + Layout.fieldOffset(s, f.name());
            for (Annotation a : f.annotations()) {
                if (a.name().equals("field_list")) {
                    for (Token tok : a.body()) {
                        if (tok.kind() == Token.Kind.INT) {
                            int id = Integer.decode(tok.text());
                            out.computeIfAbsent(id, x -> new ArrayList<>()).add(new int[] {fb, Layout.slots(f.type())});
                        }
                    }
                }
            }
            collectFieldLists(f.type(), fb, out);
        }
    }
}
