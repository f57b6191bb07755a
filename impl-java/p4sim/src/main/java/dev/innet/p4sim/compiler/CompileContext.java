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
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
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
    final Map<String, CounterArray> countersByName = new LinkedHashMap<>();
    final Map<String, dev.innet.p4sim.runtime.MeterArray> metersByName = new LinkedHashMap<>();
    final Map<String, TableRuntime> tablesByName = new LinkedHashMap<>();
    final Map<String, ActionRuntime> actionsByName = new LinkedHashMap<>();
    final Type.Struct sm;
    int hdrBase;
    int metaBase;
    int smBase;
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

    CompileContext(CheckedProgram prog, ArchState arch, boolean specialize) {
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

    String qualify(String name) {
        return blockName.isEmpty() ? name : blockName + "." + name;
    }
}
