package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Ast;
import dev.innet.p4sim.frontend.CheckedProgram;
import dev.innet.p4sim.frontend.ConstEval;
import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.ArchState;
import dev.innet.p4sim.runtime.CounterArray;
import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.coverage.CoveragePoint;
import dev.innet.p4sim.coverage.CoverageRecorder;
import dev.innet.p4sim.frontend.SourcePos;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** State shared by the pieces of the code generator while compiling one program instance. */
final class CompileContext {
    final CheckedProgram prog;
    final ConstEval constEval;
    final Layout layout = new Layout();
    final ArchState arch;
    final Specializer spec;
    /** Declaration (Param, VarDecl, action Param) to its first slot. */
    final Map<Object, Integer> storage = new IdentityHashMap<>();
    final Map<Ast.ActionDecl, ActionRuntime> actions = new IdentityHashMap<>();
    final Map<Ast.TableDecl, TableRuntime> tables = new IdentityHashMap<>();
    /** Extern instances by declaration: RegisterArray, CounterArray or DirectCounter marker. */
    final Map<Object, Object> externs = new IdentityHashMap<>();
    final Map<String, RegisterArray> registersByName = new LinkedHashMap<>();
    /** The memories named by {@code @innet_memory} and what each packet touched of them. */
    final dev.innet.p4sim.runtime.MemoryAccesses memories = new dev.innet.p4sim.runtime.MemoryAccesses();
    /** The memory id of each register array placed in a named memory (arrays without one are absent). */
    final Map<RegisterArray, Integer> registerMemory = new IdentityHashMap<>();
    final Map<String, CounterArray> countersByName = new LinkedHashMap<>();
    final Map<String, dev.innet.p4sim.runtime.MeterArray> metersByName = new LinkedHashMap<>();
    final Map<String, TableRuntime> tablesByName = new LinkedHashMap<>();
    /** Actions by their qualified source name (what tables refer to), not by their control-plane name. */
    final Map<String, ActionRuntime> actionsByName = new LinkedHashMap<>();
    /** Direct meters by their qualified source name (what a table's {@code meters =} refers to). */
    final Map<String, DirectMeter> directMetersBySourceName = new LinkedHashMap<>();
    final Type.Struct sm;
    int hdrBase;
    int metaBase;
    int smBase;
    /**
     * Field lists made from the data argument of the deprecated {@code resubmit(data)},
     * {@code recirculate(data)} and {@code clone3(type, session, data)}: slot ranges per list id. Their ids
     * start above the 8-bit ids of {@code @field_list(n)} annotations, so the two kinds never collide.
     */
    final Map<Integer, List<int[]>> dataFieldLists = new java.util.TreeMap<>();
    static final int FIRST_DATA_FIELD_LIST = 256;
    /** A direct_meter instance: its qualified name and the slot where a table hit leaves the color. */
    record DirectMeter(String name, int colorSlot) { }

    /** Compiled functions, by declaration. */
    final Map<Ast.FunctionDecl, FunctionRuntime> functions = new IdentityHashMap<>();
    /** Where {@code return e;} stores its value while a function body is compiled, else null. */
    Place returnPlace;

    /** A compiled function: parameter slots, return value slots, body. */
    record FunctionRuntime(Ast.FunctionDecl decl, int[] paramBases, int retBase, Exec body) { }

    /** Name of the parser or control being compiled, for fully qualified object names. */
    String blockName = "";

    /** Coverage counters of this instance, or null: without coverage no probe is compiled in at all. */
    final CoverageRecorder coverage;
    /** Which branches are register guards; null without coverage. */
    final RegisterGuards guards;
    /** Whether a parser is being compiled (its register guards are judged apart, see {@link RegisterGuards}). */
    boolean inParser;
    /** Per table: its hit and miss point ids (-1: no hit point, the table has no key). */
    final Map<TableRuntime, int[]> tablePoints = new IdentityHashMap<>();

    CompileContext(CheckedProgram prog, ArchState arch, boolean specialize, boolean coverage) {
        this.coverage = coverage ? new CoverageRecorder() : null;
        this.guards = coverage ? new RegisterGuards(prog) : null;
        this.spec = new Specializer(specialize);
        this.prog = prog;
        this.constEval = prog.constEval();
        this.arch = arch;
        this.sm = prog.standardMetadataType();
    }

    int smField(String name) {
        return smBase + Layout.fieldOffset(sm, name);
    }

    int errorCode(String member) {
        return prog.errorType().members().indexOf(member);
    }

    boolean coverageOn() {
        return coverage != null;
    }

    /** Registers a point at {@code pos} (the source line is its text); returns its id. */
    int point(CoveragePoint.Kind kind, SourcePos pos, String name, String outcome, boolean registerGuard) {
        return coverage.add(new CoveragePoint(kind, pos.file(), pos.line(), pos.col(), name, outcome,
                prog.sourceLine(pos.file(), pos.line()), registerGuard));
    }

    /** A statement counting point {@code id}. */
    Exec probe(int id) {
        CoverageRecorder r = coverage;
        return f -> r.hit(id);
    }

    /** {@code body} (null: nothing) preceded by a probe of a new point. */
    Exec probed(Exec body, CoveragePoint.Kind kind, SourcePos pos, String name, String outcome, boolean registerGuard) {
        Exec probe = probe(point(kind, pos, name, outcome, registerGuard));
        return body == null ? probe : spec.block(new Exec[] {probe, body});
    }

    /** The name of a branch point: its kind, in the block being compiled. */
    String branchName(String kind) {
        return blockName.isEmpty() ? kind : blockName + ": " + kind;
    }

    /** p4sim's own prelude files (core.p4, v1model.p4): their declarations are not the program's coverage. */
    static boolean isPrelude(SourcePos pos) {
        return pos.file().equals("core.p4") || pos.file().equals("v1model.p4") || pos == SourcePos.BUILTIN;
    }

    String qualify(String name) {
        return blockName.isEmpty() ? name : blockName + "." + name;
    }

    /**
     * The control-plane name of an object declared as {@code name} in the current block, as p4c's
     * HierarchicalNames gives it: {@code @name("x")} is relative (qualified like the plain name),
     * {@code @name(".x")} is global ({@code x}).
     */
    String controlPlaneName(String name, List<Ast.Annotation> annotations) {
        String given = Ast.Annotation.nameIn(annotations);
        if (given == null) {
            return qualify(name);
        }
        return given.startsWith(".") ? given.substring(1) : qualify(given);
    }
}
