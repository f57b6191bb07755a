package dev.innet.p4sim.frontend;

import dev.innet.p4sim.frontend.Ast.*;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves names and assigns types to a parsed program, rejecting ill-typed programs and constructs
 * p4sim does not implement, each with a position. It fills {@code Expr.type}, {@code Name.decl} and
 * {@code Call.target} so the compiler never has to resolve anything.
 */
public final class TypeChecker {
    private static final Set<String> MATCH_KINDS = Set.of("exact", "ternary", "lpm", "range", "optional");

    private final Scope globals = new Scope(null);
    private final Map<Object, BigInteger> constValues = new HashMap<>();
    private final ConstEval constEval = new ConstEval(constValues);
    private final Type.Enum errorType = new Type.Enum("error", new ArrayList<>(), null);
    private final Type.Enum matchKindType = new Type.Enum("match_kind", new ArrayList<>(), null);
    private final List<ActionDecl> globalActions = new ArrayList<>();
    private final List<FunctionDecl> functions = new ArrayList<>();
    /** What p4c reports as a warning and accepts (a constant that does not fit its type is truncated). */
    private final java.util.Set<String> warnings = new java.util.LinkedHashSet<>();
    /** The function being checked (return statements carry values), or null. */
    private FunctionDecl currentFunction;
    /** Type parameters in scope while checking a generic declaration. */
    private Set<String> typeVars = Set.of();
    /** Constructor parameters of parsers and controls (compile-time constants of each instance). */
    private final Set<Param> ctorParams = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** While checking a specialisation of a generic function: what its type parameters stand for. */
    private Map<String, Type> typeBindings = Map.of();
    /** Specialisations of generic functions, by function and the types bound to its type parameters. */
    private final Map<FunctionDecl, Map<List<Type>, FunctionDecl>> specialisations = new HashMap<>();
    /** Context of the block being checked. */
    private boolean inParser;
    private boolean inAction;
    /** How many for loops enclose the statement being checked (break/continue need one). */
    private int loopDepth;
    private ControlDecl currentControl;
    private ParserDecl currentParser;

    /** Key suffix of an extern function whose name a parser or control type also has. */
    private static final String FUNCTION_SUFFIX = "()";

    /**
     * A global declaration. A parser or control may have the name of an extern function (p4c's
     * issue1653-complex-bmv2 declares {@code control verify_checksum} beside v1model's extern function):
     * p4c tells them apart by use, a type where a block is instantiated and the function where it is
     * called, so the function is kept under its own key and found by calls.
     */
    private void declareBesideExternFunction(SourcePos pos, String name, Object what) {
        Object before = globals.lookupLocal(name);
        boolean block = what instanceof ControlDecl || what instanceof ParserDecl;
        if (block && before instanceof ExternDecl f && f.function != null && globals.lookupLocal(name + FUNCTION_SUFFIX) == null) {
            globals.put(name + FUNCTION_SUFFIX, f);
            globals.put(name, what);
            return;
        }
        if ((before instanceof ControlDecl || before instanceof ParserDecl) && what instanceof ExternDecl f && f.function != null
                && globals.lookupLocal(name + FUNCTION_SUFFIX) == null) {
            globals.put(name + FUNCTION_SUFFIX, f);
            return;
        }
        globals.declare(pos, name, what);
    }

    public CheckedProgram check(Program program) {
        globals.put("error", new Type.TypeName(errorType));
        TopInstantiation main = null;
        for (Decl d : program.decls()) {
            if (d instanceof TopInstantiation ti && !isGlobalExternInstance(ti)) {
                if (main != null) {
                    throw new CompileError(d.pos, "only one package instantiation is supported ('" + main.name + "' already)");
                }
                main = ti;
            }
            declare(d);
        }
        if (main == null) {
            throw new CompileError(program.decls().isEmpty() ? SourcePos.BUILTIN : program.decls().getLast().pos,
                    "program has no 'V1Switch(...) main;' instantiation");
        }
        return checkMain(program, main);
    }

    // ---------------------------------------------------------------- top-level declarations

    /** {@code register<bit<8>>(4) r;} at top level: an extern instance shared by every block (not the package). */
    private boolean isGlobalExternInstance(TopInstantiation ti) {
        return ti.inst.typeRef instanceof NamedRef n && globals.lookup(n.name) instanceof ExternDecl e && e.function == null;
    }

    private void declare(Decl d) {
        switch (d) {
            case ConstDecl c -> {
                Type t = resolveType(c.typeRef);
                checkExpr(c.value, globals, t);
                coerce(c.value, t);
                if ((t instanceof Type.Struct || t instanceof Type.Header) && isConstantInitialiser(c.value)) {
                    // a struct or header constant: the compiler gives it storage, written before every parse
                    globals.declare(c.pos, c.name, c);
                    return;
                }
                BigInteger v = constEval.tryEval(c.value);
                if (v == null) {
                    throw new CompileError(c.value.pos, "initializer of constant '" + c.name + "' is not a compile-time constant");
                }
                constValues.put(c, ConstEval.normalize(v, t));
                globals.declare(c.pos, c.name, c);
            }
            case TypedefDecl t -> globals.declare(t.pos, t.name, new Type.TypeName(resolveType(t.typeRef)));
            case StructDecl s -> globals.declare(s.pos, s.name, new Type.TypeName(structType(s)));
            case EnumDecl e -> declareEnum(e);
            case ExternDecl e -> declareBesideExternFunction(e.pos, e.name, e);
            case PrototypeDecl pd -> globals.declare(pd.pos, pd.name, pd);
            case ActionDecl a -> {
                checkAction(a, globals);
                globals.declare(a.pos, a.name, a);
                globalActions.add(a);
            }
            case FunctionDecl fd -> {
                if (fd.typeParams.isEmpty()) {
                    checkFunction(fd);
                }
                // declared after its body is checked: a function cannot call itself (P4 has no recursion)
                globals.declare(fd.pos, fd.name, fd);
                if (fd.typeParams.isEmpty()) {
                    functions.add(fd);
                }
            }
            case ParserDecl pd -> {
                declareBesideExternFunction(pd.pos, pd.name, pd);
                checkParser(pd);
            }
            case ControlDecl cd -> {
                declareBesideExternFunction(cd.pos, cd.name, cd);
                checkControl(cd);
            }
            case TopInstantiation ti -> {
                if (isGlobalExternInstance(ti)) {
                    checkInstantiation(ti.inst, globals);
                } else {
                    globals.declare(ti.pos, ti.name, ti);
                }
            }
            default -> throw CompileError.unsupported(d.pos, d.getClass().getSimpleName());
        }
    }

    private Type structType(StructDecl s) {
        List<Type.FieldT> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Field f : s.fields) {
            if (!seen.add(f.name)) {
                throw new CompileError(f.pos, "duplicate field '" + f.name + "' in " + s.name);
            }
            Type ft = resolveType(f.typeRef);
            if (s.isUnion) {
                if (!(ft instanceof Type.Header)) {
                    throw new CompileError(f.pos, "header_union member '" + f.name + "' must be a header, not " + ft);
                }
                fields.add(new Type.FieldT(f.name, ft, f.annotations));
                continue;
            }
            if (ft instanceof Type.Varbit && (!s.isHeader || varbitCount(fields) > 0)) {
                throw new CompileError(f.pos, s.isHeader ? "header " + s.name + " has more than one varbit field"
                        : "varbit field '" + f.name + "' is only allowed in a header");
            }
            if (s.isHeader && !(ft instanceof Type.Bits || ft instanceof Type.Bool || ft instanceof Type.Varbit
                    || (ft instanceof Type.Enum en && en.underlying() != null) || isFixedWidthStruct(ft))) {
                throw new CompileError(f.pos, "header field '" + f.name + "' must be bit<N>, int<N>, bool, varbit<N>, a serializable enum or a struct of them, not " + ft);
            }
            if (!s.isHeader && (ft instanceof Type.Extern || ft instanceof Type.Str || ft instanceof Type.InfInt || ft instanceof Type.Void)) {
                throw new CompileError(f.pos, "struct field '" + f.name + "' cannot have type " + ft);
            }
            fields.add(new Type.FieldT(f.name, ft, f.annotations));
        }
        if (s.isUnion) {
            return new Type.HeaderUnion(s.name, fields);
        }
        return s.isHeader ? new Type.Header(s.name, fields) : new Type.Struct(s.name, fields);
    }

    private static int varbitCount(List<Type.FieldT> fields) {
        return (int) fields.stream().filter(f -> f.type() instanceof Type.Varbit).count();
    }

    /** A struct whose fields are, recursively, bit<N>, int<N>, bool or serializable enums (p4c allows them in headers). */
    static boolean isFixedWidthStruct(Type t) {
        if (!(t instanceof Type.Struct st)) {
            return false;
        }
        for (Type.FieldT f : st.fields()) {
            Type ft = f.type();
            if (!(ft instanceof Type.Bits || ft instanceof Type.Bool || (ft instanceof Type.Enum en && en.underlying() != null)
                    || isFixedWidthStruct(ft))) {
                return false;
            }
        }
        return true;
    }

    private void declareEnum(EnumDecl e) {
        switch (e.kind) {
            case ERROR -> addMembers(e, errorType);
            case MATCH_KIND -> {
                addMembers(e, matchKindType);
                for (int i = 0; i < e.members.size(); i++) {
                    globals.put(e.members.get(i), new MatchKindMember(e.members.get(i)));
                }
            }
            case ENUM -> {
                Type.Bits under = null;
                if (e.underlying != null) {
                    Type u = resolveType(e.underlying);
                    if (!(u instanceof Type.Bits b)) {
                        throw new CompileError(e.underlying.pos, "enum underlying type must be bit<N> or int<N>");
                    }
                    under = b;
                }
                Type.Enum t = new Type.Enum(e.name, List.copyOf(e.members), under);
                if (new HashSet<>(e.members).size() != e.members.size()) {
                    throw new CompileError(e.pos, "duplicate member in enum " + e.name);
                }
                for (int i = 0; i < e.values.size(); i++) {
                    Expr v = e.values.get(i);
                    checkExpr(v, globals, under);
                    coerce(v, under);
                    BigInteger val = constEval.tryEval(v);
                    if (val == null) {
                        throw new CompileError(v.pos, "enum member value must be a compile-time constant");
                    }
                    constValues.put(e.name + "." + e.members.get(i), val);
                }
                globals.declare(e.pos, e.name, new Type.TypeName(t));
            }
        }
    }

    private static void addMembers(EnumDecl e, Type.Enum into) {
        for (int i = 0; i < e.members.size(); i++) {
            if (into.members().contains(e.members.get(i))) {
                throw new CompileError(e.memberPos.get(i), "duplicate " + e.name + " member '" + e.members.get(i) + "'");
            }
            into.members().add(e.members.get(i));
        }
    }

    /** A match kind used as a value (only meaningful in table keys). */
    record MatchKindMember(String name) { }

    // ---------------------------------------------------------------- types

    Type resolveType(TypeRef ref) {
        switch (ref) {
            case BitsRef b -> {
                checkExpr(b.width, globals, null);
                BigInteger w = constEval.tryEval(b.width);
                if (w == null) {
                    throw new CompileError(b.width.pos, "width of " + (b.signed ? "int" : "bit") + "<...> must be a compile-time constant");
                }
                if (w.signum() <= 0 || w.compareTo(BigInteger.valueOf(2048)) > 0) {
                    throw new CompileError(b.width.pos, "unsupported width " + w + " (1..2048)");
                }
                return new Type.Bits(w.intValue(), b.signed);
            }
            case VarbitRef v -> {
                checkExpr(v.maxWidth, globals, null);
                BigInteger w = constEval.tryEval(v.maxWidth);
                if (w == null || w.signum() <= 0 || w.compareTo(BigInteger.valueOf(2048)) > 0) {
                    throw new CompileError(v.maxWidth.pos, "varbit width must be a constant in 1..2048");
                }
                return new Type.Varbit(w.intValue());
            }
            case StackRef s -> {
                Type elem = resolveType(s.element);
                if (!(elem instanceof Type.Header || elem instanceof Type.HeaderUnion)) {
                    throw new CompileError(s.pos, "header stack element must be a header or header_union type, not " + elem);
                }
                checkExpr(s.size, globals, null);
                BigInteger n = constEval.tryEval(s.size);
                if (n == null || n.signum() <= 0 || n.intValue() > 4096) {
                    throw new CompileError(s.size.pos, "header stack size must be a positive compile-time constant");
                }
                return new Type.Stack(elem, n.intValue());
            }
            case NamedRef n -> {
                switch (n.name) {
                    case "bool":
                        return new Type.Bool();
                    case "error":
                        return errorType;
                    case "string":
                        return new Type.Str();
                    case "void":
                        return new Type.Void();
                    case "int":
                        return new Type.InfInt();
                    case "match_kind":
                        return matchKindType;
                    case "tuple": {
                        List<Type> elems = new ArrayList<>();
                        for (TypeRef a : n.args) {
                            elems.add(resolveType(a));
                        }
                        return new Type.Tuple(elems);
                    }
                    default:
                        break;
                }
                if (typeBindings.containsKey(n.name)) {
                    return typeBindings.get(n.name);
                }
                if (typeVars.contains(n.name)) {
                    return new Type.Var(n.name);
                }
                Object o = globals.lookup(n.name);
                if (o instanceof Type.TypeName tn) {
                    if (!n.args.isEmpty()) {
                        throw new CompileError(n.pos, "type " + n.name + " takes no type arguments");
                    }
                    return tn.denoted();
                }
                if (o instanceof ExternDecl e && e.function == null) {
                    if (n.args.size() != e.typeParams.size()) {
                        throw new CompileError(n.pos, "extern " + n.name + " expects " + e.typeParams.size() + " type argument(s)");
                    }
                    List<Type> args = new ArrayList<>();
                    for (TypeRef a : n.args) {
                        args.add(resolveType(a));
                    }
                    return new Type.Extern(e, args);
                }
                if (o instanceof PrototypeDecl || o instanceof ParserDecl || o instanceof ControlDecl) {
                    return new Type.Block((Decl) o);
                }
                throw new CompileError(n.pos, "unknown type '" + n.name + "'");
            }
            default -> throw CompileError.unsupported(ref.pos, "type reference");
        }
    }

    // ---------------------------------------------------------------- parsers, controls, actions

    private void checkParser(ParserDecl pd) {
        Scope s = new Scope(globals);
        declareParams(pd.params, s);
        declareCtorParams(pd.ctorParams, s);
        inParser = true;
        currentParser = pd;
        for (Stmt l : pd.locals) {
            checkStmt(l, s);
        }
        Map<String, State> states = new HashMap<>();
        for (State st : pd.states) {
            if (st.name.equals("accept") || st.name.equals("reject")) {
                throw new CompileError(st.pos, "state name '" + st.name + "' is reserved");
            }
            if (states.put(st.name, st) != null) {
                throw new CompileError(st.pos, "duplicate parser state '" + st.name + "'");
            }
        }
        if (!states.containsKey("start")) {
            throw new CompileError(pd.pos, "parser '" + pd.name + "' has no 'start' state");
        }
        for (State st : pd.states) {
            Scope ss = new Scope(s);
            for (Stmt stmt : st.stmts) {
                checkStmt(stmt, ss);
            }
            List<String> targets = new ArrayList<>();
            if (st.next != null) {
                targets.add(st.next);
            } else {
                List<Type> keyTypes = new ArrayList<>();
                for (Expr k : st.selectOn) {
                    Type kt = checkExpr(k, ss, null);
                    if (!(kt instanceof Type.Bits || kt instanceof Type.Bool || kt instanceof Type.Enum)) {
                        throw new CompileError(k.pos, "select key must be bit<N>, int<N>, bool or enum, not " + kt);
                    }
                    keyTypes.add(kt);
                }
                for (SelectCase c : st.cases) {
                    checkKeyset(c.pos(), c.keysets(), keyTypes, ss, "select case");
                    targets.add(c.next());
                }
            }
            for (String t : targets) {
                if (!t.equals("accept") && !t.equals("reject") && !states.containsKey(t)) {
                    throw new CompileError(st.transitionPos, "transition to unknown state '" + t + "'");
                }
            }
        }
        inParser = false;
        currentParser = null;
    }

    /** Checks one keyset (select case or const table entry) against the key types. */
    private void checkKeyset(SourcePos pos, List<Expr> keysets, List<Type> keyTypes, Scope s, String what) {
        if (keysets.size() == 1 && (keysets.get(0) instanceof DefaultKey || keysets.get(0) instanceof DontCare)) {
            return;
        }
        if (inParser && valueSetKeyset(pos, keysets, keyTypes, s)) {
            return;
        }
        if (keysets.size() != keyTypes.size()) {
            throw new CompileError(pos, what + " has " + keysets.size() + " keyset element(s) but there are "
                    + keyTypes.size() + " key(s)");
        }
        for (int i = 0; i < keysets.size(); i++) {
            Expr k = keysets.get(i);
            Type kt = keyTypes.get(i);
            switch (k) {
                case DefaultKey d -> { }
                case DontCare d -> { }
                case Mask m -> {
                    maskOperand(m.value, s, kt);
                    maskOperand(m.mask, s, kt);
                }
                case Range r -> {
                    constant(r.lo, s, kt);
                    constant(r.hi, s, kt);
                }
                case Name n when s.lookup(n.name) instanceof Param p && ctorParams.contains(p) -> {
                    // a constructor parameter: a constant of each instance, known when it is compiled
                    checkExpr(k, s, kt);
                    coerce(k, kt);
                }
                default -> constant(k, s, kt);
            }
        }
    }

    /**
     * One side of {@code value &&& mask} against a key of type {@code kt}. For a serializable-enum key,
     * p4c also takes operands of the enum's underlying type (a member cast to bits, a literal mask),
     * since a ternary match compares the key's bits.
     */
    private void maskOperand(Expr e, Scope s, Type kt) {
        if (!(kt instanceof Type.Enum en) || en.underlying() == null) {
            constant(e, s, kt);
            return;
        }
        Type actual = checkExpr(e, s, null);
        Type target = actual.equals(kt) ? kt : en.underlying();
        coerce(e, target);
        if (constEval.tryEval(e) == null) {
            throw new CompileError(e.pos, "expected a compile-time constant");
        }
    }

    private BigInteger constant(Expr e, Scope s, Type t) {
        checkExpr(e, s, t);
        coerce(e, t);
        BigInteger v = constEval.tryEval(e);
        if (v == null) {
            throw new CompileError(e.pos, "expected a compile-time constant");
        }
        return v;
    }

    private void checkControl(ControlDecl cd) {
        Scope s = new Scope(globals);
        declareParams(cd.params, s);
        declareCtorParams(cd.ctorParams, s);
        currentControl = cd;
        for (Node l : cd.locals) {
            switch (l) {
                case ActionDecl a -> {
                    checkAction(a, s);
                    s.declare(a.pos, a.name, a);
                }
                case TableDecl t -> {
                    if (t.inlineImplementation != null) {
                        // its own scope: the instance is the table's, not a name of the control
                        checkInstantiation(t.inlineImplementation, new Scope(s));
                    }
                    checkTable(t, s);
                    s.declare(t.pos, t.name, t);
                }
                case Stmt st -> checkStmt(st, s);
                default -> throw CompileError.unsupported(l.pos, "control local");
            }
        }
        checkStmt(cd.apply, new Scope(s));
        currentControl = null;
    }

    private void declareParams(List<Param> params, Scope s) {
        for (Param p : params) {
            p.type = resolveType(p.typeRef);
            if (p.optional) {
                throw CompileError.unsupported(p.pos, "@optional parameter");
            }
            s.declare(p.pos, p.name, p);
        }
    }

    /**
     * Constructor parameters: read-only values inside the block, compile-time constants of each
     * instance (the code generator compiles every instance with its own values).
     */
    private void declareCtorParams(List<Param> params, Scope s) {
        ctorParams.addAll(params);
        for (Param p : params) {
            p.type = resolveType(p.typeRef);
            if (p.dir != Direction.NONE) {
                throw new CompileError(p.pos, "constructor parameter '" + p.name + "' cannot have a direction");
            }
            if (isControlType(p.type)) {
                for (Param cp : ((PrototypeDecl) ((Type.Block) p.type).decl()).params) {
                    cp.type = resolveType(cp.typeRef);
                }
                s.declare(p.pos, p.name, p);
                continue;
            }
            if (!(p.type instanceof Type.Bits || p.type instanceof Type.Bool || p.type instanceof Type.Enum)) {
                throw CompileError.unsupported(p.pos, "constructor parameter of type " + p.type
                        + " (bit<N>, int<N>, bool and enums are supported)");
            }
            s.declare(p.pos, p.name, p);
        }
    }

    /** Constructor arguments of a parser or control instance: values of the parameters' types. */
    /** A control type declaration ({@code control C(inout bit<16> x);}), the type of a constructor parameter. */
    private static boolean isControlType(Type t) {
        return t instanceof Type.Block b && b.decl() instanceof PrototypeDecl proto && proto.kind == PrototypeDecl.Kind.CONTROL;
    }

    /**
     * The argument for a control-typed constructor parameter: a control instance of the enclosing
     * block whose apply parameters have the type's types and directions (p4c's C2(c1) c2;).
     */
    private void checkControlCtorArg(Param p, Expr arg, Scope s) {
        PrototypeDecl proto = (PrototypeDecl) ((Type.Block) p.type).decl();
        if (!(arg instanceof Name n) || !(s.lookup(n.name) instanceof Instantiation inst)
                || !(inst.type instanceof Type.Block b) || !(b.decl() instanceof ControlDecl cd)) {
            throw new CompileError(arg.pos, "the argument for control parameter '" + p.name
                    + "' must be a control instance declared in the enclosing block");
        }
        n.decl = inst;
        n.type = inst.type;
        boolean same = cd.params.size() == proto.params.size();
        for (int i = 0; same && i < cd.params.size(); i++) {
            same = cd.params.get(i).dir == proto.params.get(i).dir && cd.params.get(i).type.equals(proto.params.get(i).type);
        }
        if (!same) {
            throw new CompileError(arg.pos, "control " + cd.name + " does not have the parameters of " + proto.name);
        }
    }

    private void checkCtorArgs(SourcePos pos, String what, List<Param> ctorParams, List<Expr> args, Scope s) {
        if (args.size() != ctorParams.size()) {
            throw new CompileError(pos, what + " takes " + ctorParams.size() + " constructor argument(s), got " + args.size());
        }
        for (int i = 0; i < args.size(); i++) {
            if (isControlType(ctorParams.get(i).type)) {
                checkControlCtorArg(ctorParams.get(i), args.get(i), s);
                continue;
            }
            checkExpr(args.get(i), s, ctorParams.get(i).type);
            coerce(args.get(i), ctorParams.get(i).type);
        }
    }

    private void checkFunction(FunctionDecl fd) {
        Map<String, Type> savedBindings = typeBindings;
        FunctionDecl savedFunction = currentFunction;
        typeBindings = fd.typeBindings;
        try {
            checkFunctionBody(fd);
        } finally {
            typeBindings = savedBindings;
            currentFunction = savedFunction;
        }
    }

    private void checkFunctionBody(FunctionDecl fd) {
        fd.ret = resolveType(fd.retRef);
        if (!(fd.ret instanceof Type.Void || Type.isScalar(fd.ret) || fd.ret instanceof Type.Header
                || fd.ret instanceof Type.Struct || fd.ret instanceof Type.HeaderUnion || fd.ret instanceof Type.Tuple)) {
            throw CompileError.unsupported(fd.pos, "function returning " + fd.ret);
        }
        Scope s = new Scope(globals);
        for (Param p : fd.params) {
            p.type = resolveType(p.typeRef);
            if (p.dir == Direction.NONE) {
                // p4c accepts a function parameter without a direction and treats it as 'in'
                // (p4c's testdata gauntlet_hdr_in_value-bmv2.p4 passes a struct that way)
                p.dir = Direction.IN;
            }
            s.declare(p.pos, p.name, p);
        }
        currentFunction = fd;
        boolean wasAction = inAction;
        inAction = false;
        try {
            checkStmt(fd.body, s);
        } finally {
            inAction = wasAction;
        }
    }

    /**
     * The specialisation of generic function {@code fd} for this call: type arguments are given
     * ({@code f<bit<8>>(x)}) or taken from the arguments whose parameter type is a bare type
     * parameter. Each distinct binding gets its own freshly parsed and checked copy.
     */
    private FunctionDecl specialise(FunctionDecl fd, Call c, Scope s) {
        Map<String, Type> bind = new HashMap<>();
        if (!c.typeArgs.isEmpty()) {
            if (c.typeArgs.size() != fd.typeParams.size()) {
                throw new CompileError(c.pos, "function " + fd.name + " expects " + fd.typeParams.size() + " type argument(s)");
            }
            for (int i = 0; i < c.typeArgs.size(); i++) {
                bind.put(fd.typeParams.get(i), resolveType(c.typeArgs.get(i)));
            }
        }
        if (c.args.size() != fd.params.size()) {
            throw new CompileError(c.pos, "function " + fd.name + " expects " + fd.params.size()
                    + " argument(s), got " + c.args.size());
        }
        for (int i = 0; i < c.args.size(); i++) {
            if (fd.params.get(i).typeRef instanceof NamedRef n && fd.typeParams.contains(n.name) && !bind.containsKey(n.name)) {
                Type at = checkExpr(c.args.get(i), s, null);
                if (!(at instanceof Type.InfInt || at instanceof Type.DontCare)) {
                    bind.put(n.name, at);
                }
            }
        }
        List<Type> key = new ArrayList<>();
        for (String tp : fd.typeParams) {
            Type t = bind.get(tp);
            if (t == null) {
                throw new CompileError(c.pos, "cannot infer type parameter " + tp + " of " + fd.name + "; give a type argument");
            }
            key.add(t);
        }
        Map<List<Type>, FunctionDecl> known = specialisations.computeIfAbsent(fd, k -> new HashMap<>());
        FunctionDecl spec = known.get(key);
        if (spec == null) {
            spec = fd.reparse.get();
            spec.typeBindings = Map.copyOf(bind);
            checkFunction(spec);
            known.put(key, spec);
            functions.add(spec);
        }
        return spec;
    }

    private void checkAction(ActionDecl a, Scope outer) {
        Scope s = new Scope(outer);
        boolean seenDirectionless = false;
        for (Param p : a.params) {
            p.type = resolveType(p.typeRef);
            if (p.dir == Direction.NONE) {
                seenDirectionless = true;
                if (!(p.type instanceof Type.Bits || p.type instanceof Type.Bool
                        || (p.type instanceof Type.Enum en && en.underlying() != null))) {
                    throw CompileError.unsupported(p.pos, "control-plane action parameter of type " + p.type);
                }
            } else if (seenDirectionless) {
                throw new CompileError(p.pos, "directional parameters must precede directionless ones in action " + a.name);
            }
            s.declare(p.pos, p.name, p);
        }
        boolean was = inAction;
        inAction = true;
        checkStmt(a.body, s);
        inAction = was;
    }

    private void checkTable(TableDecl t, Scope s) {
        List<Type> keyTypes = new ArrayList<>();
        int lpm = 0;
        for (KeyElement k : t.keys) {
            Type kt = checkExpr(k.expr(), s, null);
            if (!(kt instanceof Type.Bits || kt instanceof Type.Bool || kt instanceof Type.Enum)) {
                throw new CompileError(k.pos(), "table key must be bit<N>, int<N>, bool, enum or error, not " + kt);
            }
            if (!MATCH_KINDS.contains(k.matchKind())) {
                if (k.matchKind().equals("selector")) {
                    if (!implementationIs(t, s, "action_selector")) {
                        throw new CompileError(k.pos(), "a 'selector' key needs implementation = an action_selector");
                    }
                    if (!(kt instanceof Type.Bits)) {
                        throw new CompileError(k.pos(), "selector match requires a bit<N> key, not " + kt);
                    }
                    continue; // hashed to choose a group member, not matched
                }
                throw new CompileError(k.pos(), "unknown match kind '" + k.matchKind() + "'");
            }
            if (k.matchKind().equals("lpm") && ++lpm > 1) {
                throw new CompileError(k.pos(), "table " + t.name + " has more than one lpm key");
            }
            boolean serializableEnum = kt instanceof Type.Enum en && en.underlying() != null;
            if (!k.matchKind().equals("exact") && !(kt instanceof Type.Bits) && !serializableEnum) {
                throw new CompileError(k.pos(), k.matchKind() + " match requires a bit<N> key, not " + kt);
            }
            keyTypes.add(kt);
        }
        Set<String> names = new HashSet<>();
        for (ActionRef a : t.actions) {
            ActionDecl ad = lookupAction(a, s);
            if (!names.add(a.name())) {
                throw new CompileError(a.pos(), "action " + a.name() + " listed twice in table " + t.name);
            }
            checkBoundArgs(a, ad, t, s);
        }
        if (t.defaultAction != null) {
            checkActionRef(t.defaultAction, t, s, true);
        }
        if (t.entries != null) {
            for (Entry e : t.entries) {
                if (t.keys.isEmpty()) {
                    throw new CompileError(e.pos(), "table " + t.name + " has entries but no key");
                }
                checkKeyset(e.pos(), e.keys(), keyTypes, s, "entry");
                for (int i = 0; i < e.keys().size() && i < t.keys.size(); i++) {
                    Expr k = e.keys().get(i);
                    String mk = t.keys.get(i).matchKind();
                    if (k instanceof Mask && !(mk.equals("ternary") || mk.equals("lpm"))) {
                        throw new CompileError(k.pos, "mask keyset on a " + mk + " key");
                    }
                    if (k instanceof Range && !mk.equals("range")) {
                        throw new CompileError(k.pos, "range keyset on a " + mk + " key");
                    }
                }
                if (e.priority() != null) {
                    constant(e.priority(), s, new Type.Bits(32, false));
                }
                if (e.bmv2Priority() != null) {
                    constant(e.bmv2Priority(), s, new Type.Bits(32, false));
                    if (t.entries.stream().anyMatch(other -> other.priority() != null)) {
                        throw CompileError.unsupported(e.bmv2Priority().pos, "@priority after an entry's action together with"
                                + " 'priority =' or a leading @priority in one table (bmv2 and P4Runtime order them oppositely)");
                    }
                }
                checkActionRef(e.action(), t, s, false);
            }
        }
        if (t.size != null) {
            constant(t.size, s, new Type.InfInt());
        }
        if (t.implementation != null) {
            implementationIs(t, s, "action_selector");
            if (t.entries != null) {
                throw CompileError.unsupported(t.pos, "const entries in a table with an action profile");
            }
        }
        for (String ext : new String[] {t.directCounter, t.directMeter}) {
            if (ext != null) {
                Object o = s.lookup(ext);
                if (!(o instanceof Instantiation inst && inst.type instanceof Type.Extern e
                        && (e.decl().name.equals("direct_counter") || e.decl().name.equals("direct_meter")))) {
                    throw new CompileError(t.pos, "'" + ext + "' is not a direct_counter or direct_meter instance");
                }
                if (ext.equals(t.directCounter) != e.decl().name.equals("direct_counter")) {
                    throw new CompileError(t.pos, "'" + ext + "' is a " + e.decl().name + " but is used as table "
                            + (ext.equals(t.directCounter) ? "counters" : "meters"));
                }
            }
        }
    }

    /**
     * An action in a table's actions list: its directional parameters (which come first) are bound
     * by the arguments given there ({@code drop(smeta)}); the control plane supplies the others.
     */
    private void checkBoundArgs(ActionRef a, ActionDecl ad, TableDecl t, Scope s) {
        List<Param> directional = ad.params.stream().filter(p -> p.dir != Direction.NONE).toList();
        bindArgs(a.args(), directional, a.pos(), "action " + a.name());
        if (a.args().size() != directional.size()) {
            throw new CompileError(a.pos(), "action " + a.name() + " in the actions of table " + t.name + " needs "
                    + directional.size() + " argument(s) for its directional parameters, got " + a.args().size());
        }
        for (int i = 0; i < directional.size(); i++) {
            checkArg(a.args().get(i), directional.get(i), directional.get(i).type, s);
        }
    }

    /** Whether the table's implementation is an instance of {@code ext} (checking that it is a profile at all). */
    private boolean implementationIs(TableDecl t, Scope s, String ext) {
        if (t.implementation == null) {
            return false;
        }
        Instantiation inst = t.inlineImplementation;
        if (inst == null) {
            Object o = s.lookup(t.implementation);
            inst = o instanceof Instantiation i ? i : null;
        }
        if (inst == null || !(inst.type instanceof Type.Extern e)
                || !(e.decl().name.equals("action_profile") || e.decl().name.equals("action_selector"))) {
            throw new CompileError(t.pos, "implementation of table " + t.name + ": '" + t.implementation
                    + "' is not an action_profile or action_selector instance");
        }
        return e.decl().name.equals(ext);
    }

    private ActionDecl lookupAction(ActionRef a, Scope s) {
        Object o = s.lookup(a.name());
        if (!(o instanceof ActionDecl ad)) {
            throw new CompileError(a.pos(), "'" + a.name() + "' is not an action");
        }
        return ad;
    }

    /** default_action / entry action: must be listed in the table; control-plane arguments must be constants. */
    private void checkActionRef(ActionRef a, TableDecl t, Scope s, boolean asDefault) {
        ActionDecl ad = lookupAction(a, s);
        ActionRef listed = t.actions.stream().filter(x -> x.name().equals(a.name())).findFirst().orElse(null);
        if (listed == null) {
            throw new CompileError(a.pos(), "action " + a.name() + " is not in the actions of table " + t.name);
        }
        if (asDefault && listed.scope().equals("tableonly")) {
            throw new CompileError(a.pos(), "action " + a.name() + " is @tableonly in table " + t.name + " and cannot be its default");
        }
        if (!asDefault && listed.scope().equals("defaultonly")) {
            throw new CompileError(a.pos(), "action " + a.name() + " is @defaultonly in table " + t.name + " and cannot be used by entries");
        }
        bindArgs(a.args(), ad.params, a.pos(), "action " + a.name());
        if (a.args().size() != ad.params.size()) {
            throw new CompileError(a.pos(), "action " + a.name() + " expects " + ad.params.size()
                    + " argument(s), got " + a.args().size());
        }
        for (int i = 0; i < a.args().size(); i++) {
            Param p = ad.params.get(i);
            if (p.dir != Direction.NONE) {
                // a directional argument repeats the binding of the actions list
                checkArg(a.args().get(i), p, p.type, s);
            } else {
                constant(a.args().get(i), s, p.type);
            }
        }
    }

    // ---------------------------------------------------------------- the main instantiation

    private CheckedProgram checkMain(Program program, TopInstantiation main) {
        Instantiation inst = main.inst;
        if (!(inst.typeRef instanceof NamedRef n) || !n.name.equals("V1Switch")) {
            throw CompileError.unsupported(inst.pos, "package other than V1Switch (p4sim implements the v1model architecture)");
        }
        if (!main.name.equals("main")) {
            throw new CompileError(inst.pos, "the package instance must be named 'main'");
        }
        if (inst.args.size() != 6) {
            throw new CompileError(inst.pos, "V1Switch takes 6 arguments (parser, verifyChecksum, ingress, egress, computeChecksum, deparser)");
        }
        Decl[] blocks = new Decl[6];
        for (int i = 0; i < 6; i++) {
            Expr a = inst.args.get(i);
            if (!(a instanceof Call c && c.callee instanceof Name nm)) {
                throw new CompileError(a.pos, "V1Switch argument must be a parser or control instantiation like Name()");
            }
            Object d = globals.lookup(nm.name);
            if (!(d instanceof ParserDecl || d instanceof ControlDecl)) {
                throw new CompileError(a.pos, "'" + nm.name + "' is not a parser or control");
            }
            List<Param> ctorParams = d instanceof ParserDecl pd ? pd.ctorParams : ((ControlDecl) d).ctorParams;
            checkCtorArgs(a.pos, nm.name, ctorParams, c.args, globals);
            blocks[i] = (Decl) d;
        }
        if (!(blocks[0] instanceof ParserDecl parser)) {
            throw new CompileError(inst.args.get(0).pos, "first V1Switch argument must be a parser");
        }
        Type.Struct stdMeta = (Type.Struct) ((Type.TypeName) globals.lookup("standard_metadata_t")).denoted();
        Type packetIn = new Type.Extern((ExternDecl) globals.lookup("packet_in"), List.of());
        Type packetOut = new Type.Extern((ExternDecl) globals.lookup("packet_out"), List.of());
        SourcePos ppos = inst.args.get(0).pos;
        if (parser.params.size() != 4) {
            throw new CompileError(parser.pos, "v1model parser must have 4 parameters (packet_in, out H, inout M, inout standard_metadata_t)");
        }
        Type h = parser.params.get(1).type;
        Type m = parser.params.get(2).type;
        expectParams(parser, parser.params, new Type[] {packetIn, h, m, stdMeta},
                new Direction[] {Direction.NONE, Direction.OUT, Direction.INOUT, Direction.INOUT});
        if (!(h instanceof Type.Struct) && !(h instanceof Type.Header)) {
            throw new CompileError(ppos, "parsed headers type H must be a struct or header, not " + h);
        }
        if (!(m instanceof Type.Struct)) {
            throw new CompileError(ppos, "metadata type M must be a struct, not " + m);
        }
        ControlDecl[] controls = new ControlDecl[5];
        for (int i = 1; i < 6; i++) {
            if (!(blocks[i] instanceof ControlDecl cd)) {
                throw new CompileError(inst.args.get(i).pos, "V1Switch argument " + (i + 1) + " must be a control");
            }
            controls[i - 1] = cd;
        }
        Direction io = Direction.INOUT;
        expectParams(controls[0], controls[0].params, new Type[] {h, m}, new Direction[] {io, io});
        expectParams(controls[1], controls[1].params, new Type[] {h, m, stdMeta}, new Direction[] {io, io, io});
        expectParams(controls[2], controls[2].params, new Type[] {h, m, stdMeta}, new Direction[] {io, io, io});
        expectParams(controls[3], controls[3].params, new Type[] {h, m}, new Direction[] {io, io});
        expectParams(controls[4], controls[4].params, new Type[] {packetOut, h}, new Direction[] {Direction.NONE, Direction.IN});
        return new CheckedProgram(program, parser, controls[0], controls[1], controls[2], controls[3], controls[4],
                h, m, stdMeta, errorType, constValues, globalActions, functions, Map.of(), List.copyOf(warnings));
    }

    private static void expectParams(Decl block, List<Param> params, Type[] types, Direction[] dirs) {
        if (params.size() != types.length) {
            throw new CompileError(block.pos, block.name + " must have " + types.length + " parameters for its V1Switch role, has " + params.size());
        }
        for (int i = 0; i < types.length; i++) {
            Param p = params.get(i);
            if (!p.type.equals(types[i])) {
                throw new CompileError(p.pos, "parameter '" + p.name + "' of " + block.name + " must have type " + types[i] + ", not " + p.type);
            }
            // p4c also accepts a read-only 'in' where the architecture passes 'inout' (p4c's union-bmv2.p4 does it)
            boolean dirOk = p.dir == dirs[i] || (dirs[i] == Direction.IN && p.dir == Direction.NONE)
                    || (dirs[i] == Direction.INOUT && p.dir == Direction.IN);
            if (!dirOk) {
                throw new CompileError(p.pos, "parameter '" + p.name + "' of " + block.name + " must be "
                        + dirs[i].name().toLowerCase() + " for its V1Switch role");
            }
        }
    }

    // ---------------------------------------------------------------- statements

    private void checkStmt(Stmt st, Scope s) {
        switch (st) {
            case Block b -> {
                Scope inner = new Scope(s);
                for (Stmt x : b.stmts) {
                    checkStmt(x, inner);
                }
            }
            case Assign a -> {
                Type lt = checkExpr(a.lhs, s, null);
                requireLvalue(a.lhs, s);
                checkExpr(a.rhs, s, lt);
                coerce(a.rhs, lt);
            }
            case CallStmt c -> checkExpr(c.call, s, null);
            case If i -> {
                checkExpr(i.cond, s, new Type.Bool());
                requireType(i.cond, new Type.Bool());
                checkStmt(i.then, new Scope(s));
                if (i.otherwise != null) {
                    checkStmt(i.otherwise, new Scope(s));
                }
            }
            case Exit e -> {
                if (currentFunction != null) {
                    throw new CompileError(e.pos, "exit is not allowed in a function");
                }
                if (inParser) {
                    throw new CompileError(e.pos, "exit is not allowed in a parser");
                }
            }
            case Return r -> {
                if (currentFunction != null) {
                    Type rt = currentFunction.ret;
                    if (rt instanceof Type.Void) {
                        if (r.value != null) {
                            throw new CompileError(r.pos, "function " + currentFunction.name + " returns void");
                        }
                    } else {
                        if (r.value == null) {
                            throw new CompileError(r.pos, "function " + currentFunction.name + " must return a " + rt);
                        }
                        checkExpr(r.value, s, rt);
                        coerce(r.value, rt);
                    }
                    return;
                }
                if (inParser) {
                    throw new CompileError(r.pos, "return is not allowed in a parser");
                }
                if (r.value != null) {
                    throw new CompileError(r.pos, "return with a value outside a function");
                }
            }
            case Empty e -> { }
            case Switch sw -> checkSwitch(sw, s);
            case VarDecl v -> {
                v.type = resolveType(v.typeRef);
                if (v.type instanceof Type.Extern || v.type instanceof Type.Void || v.type instanceof Type.Str) {
                    throw new CompileError(v.pos, "variable '" + v.name + "' cannot have type " + v.type);
                }
                if (v.init != null) {
                    checkExpr(v.init, s, v.type);
                    coerce(v.init, v.type);
                }
                if (v.isConst && (v.type instanceof Type.Struct || v.type instanceof Type.Header)
                        && v.init != null && isConstantInitialiser(v.init)) {
                    // a struct or header constant: stored like a variable that nothing may assign
                    s.declare(v.pos, v.name, v);
                    return;
                }
                if (v.isConst) {
                    BigInteger val = v.init == null ? null : constEval.tryEval(v.init);
                    if (val == null) {
                        throw new CompileError(v.pos, "initializer of constant '" + v.name + "' is not a compile-time constant");
                    }
                    constValues.put(v, val);
                }
                s.declare(v.pos, v.name, v);
            }
            case Instantiation inst -> checkInstantiation(inst, s);
            case For f -> checkFor(f, s);
            case ForIn f -> checkForIn(f, s);
            case Break b -> {
                if (loopDepth == 0) {
                    throw new CompileError(b.pos, "break outside a for loop");
                }
            }
            case Continue c -> {
                if (loopDepth == 0) {
                    throw new CompileError(c.pos, "continue outside a for loop");
                }
            }
            default -> throw CompileError.unsupported(st.pos, st.getClass().getSimpleName() + " statement");
        }
    }

    /** {@code for (init; cond; updates) body}: the init's declarations are visible in the rest of the loop. */
    private void checkFor(For f, Scope s) {
        if (inParser) {
            throw CompileError.unsupported(f.pos, "for loop in a parser");
        }
        Scope loop = new Scope(s);
        for (Stmt i : f.init) {
            checkStmt(i, loop);
        }
        if (f.cond != null) {
            checkExpr(f.cond, loop, new Type.Bool());
            requireType(f.cond, new Type.Bool());
        }
        loopDepth++;
        try {
            checkStmt(f.body, new Scope(loop));
        } finally {
            loopDepth--;
        }
        for (Stmt u : f.updates) {
            checkStmt(u, loop);
        }
    }

    /** {@code for (T x in lo .. hi)} over bit<N> values (N <= 64), or {@code for (T x in stack)} over its elements. */
    private void checkForIn(ForIn f, Scope s) {
        if (inParser) {
            throw CompileError.unsupported(f.pos, "for loop in a parser");
        }
        VarDecl v = f.var;
        v.type = resolveType(v.typeRef);
        if (f.collection instanceof Range r) {
            if (!(v.type instanceof Type.Bits b) || b.signed() || b.width() > 64) {
                throw CompileError.unsupported(v.pos, "for-in over a range with a loop variable of type " + v.type
                        + " (bit<N>, N <= 64, is supported)");
            }
            for (Expr bound : new Expr[] {r.lo, r.hi}) {
                checkExpr(bound, s, v.type);
                coerce(bound, v.type);
            }
        } else if (f.collection instanceof ListExpr l) {
            // a list of values: each is converted to the loop variable's type
            for (Expr e : l.elements) {
                checkExpr(e, s, v.type);
                coerce(e, v.type);
            }
            f.collection.type = new Type.Tuple(l.elements.stream().map(e -> e.type).toList());
        } else {
            Type ct = checkExpr(f.collection, s, null);
            if (!(ct instanceof Type.Stack st)) {
                throw CompileError.unsupported(f.collection.pos, "for-in over " + ct + " (ranges lo .. hi, lists {a, b} and header stacks are supported)");
            }
            if (!st.element().equals(v.type)) {
                throw new CompileError(v.pos, "loop variable of type " + v.type + " cannot hold elements of " + ct);
            }
        }
        Scope loop = new Scope(s);
        loop.declare(v.pos, v.name, v);
        loopDepth++;
        try {
            checkStmt(f.body, new Scope(loop));
        } finally {
            loopDepth--;
        }
    }

    private void checkSwitch(Switch sw, Scope s) {
        boolean actionRun = sw.subject instanceof Member m && m.member.equals("action_run") && m.target instanceof Call;
        Type.ApplyResult ar = null;
        Type subjectType;
        if (actionRun) {
            Type t = checkExpr(((Member) sw.subject).target, s, null);
            if (!(t instanceof Type.ApplyResult applied)) {
                throw new CompileError(sw.subject.pos, "switch subject must be table.apply().action_run");
            }
            ar = applied;
            sw.subject.type = t;
            subjectType = t;
        } else {
            subjectType = checkExpr(sw.subject, s, null);
            if (!(subjectType instanceof Type.Bits || subjectType instanceof Type.Enum)) {
                throw new CompileError(sw.subject.pos, "switch subject must be table.apply().action_run, bit<N>, int<N>, an enum or error, not " + subjectType);
            }
            if (Layout64.wide(subjectType)) {
                throw CompileError.unsupported(sw.subject.pos, "switch on a value wider than 64 bits");
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < sw.cases.size(); i++) {
            SwitchCase sc = sw.cases.get(i);
            String key;
            if (sc.isDefault()) {
                if (i != sw.cases.size() - 1) {
                    throw new CompileError(sc.pos(), "default must be the last switch label");
                }
                key = "default";
            } else if (actionRun) {
                ActionRef listed = sc.label() == null ? null
                        : ar.decl().actions.stream().filter(a -> a.name().equals(sc.label())).findFirst().orElse(null);
                if (listed == null) {
                    throw new CompileError(sc.pos(), "'" + (sc.label() == null ? "expression" : sc.label())
                            + "' is not an action of table " + ar.decl().name);
                }
                key = sc.label();
            } else {
                key = constant(sc.value(), s, subjectType).toString();
            }
            if (!seen.add(key)) {
                throw new CompileError(sc.pos(), "duplicate switch label " + (sc.label() != null ? sc.label() : key));
            }
            if (sc.body() != null) {
                checkStmt(sc.body(), new Scope(s));
            } else if (i == sw.cases.size() - 1) {
                throw new CompileError(sc.pos(), "last switch label has no body");
            }
        }
    }

    /** Width test without depending on the compiler package. */
    private static final class Layout64 {
        static boolean wide(Type t) {
            return t instanceof Type.Bits b && b.width() > 64;
        }
    }

    private void checkInstantiation(Instantiation inst, Scope s) {
        if (inst.typeRef instanceof NamedRef vs && vs.name.equals("value_set")) {
            checkValueSet(inst, vs, s);
            return;
        }
        Type t = resolveType(inst.typeRef);
        if (t instanceof Type.Block b && b.decl() instanceof ParserDecl pd) {
            if (!inParser) {
                throw CompileError.unsupported(inst.pos, "parser instance outside a parser");
            }
            checkCtorArgs(inst.pos, "parser " + pd.name, pd.ctorParams, inst.args, s);
            if (pd == currentParser) {
                throw new CompileError(inst.pos, "parser " + pd.name + " cannot instantiate itself");
            }
            inst.type = t;
            s.declare(inst.pos, inst.name, inst);
            return;
        }
        if (t instanceof Type.Block b && b.decl() instanceof ControlDecl cd) {
            if (inParser) {
                throw CompileError.unsupported(inst.pos, "control instance inside a parser");
            }
            checkCtorArgs(inst.pos, "control " + cd.name, cd.ctorParams, inst.args, s);
            if (cd == currentControl) {
                throw new CompileError(inst.pos, "control " + cd.name + " cannot instantiate itself");
            }
            inst.type = t;
            s.declare(inst.pos, inst.name, inst);
            return;
        }
        if (!(t instanceof Type.Extern e)) {
            throw CompileError.unsupported(inst.pos, "instantiation of " + t + " (only extern objects can be instantiated locally)");
        }
        String ext = e.decl().name;
        if (Set.of("packet_in", "packet_out").contains(ext)) {
            throw CompileError.unsupported(inst.pos, "instantiating " + ext);
        }
        if (ext.equals("direct_meter") && !(e.args().get(0) instanceof Type.Bits mb && mb.width() >= 2)) {
            throw new CompileError(inst.pos, "direct_meter color type must be bit<N> with N >= 2, not " + e.args().get(0));
        }
        Method ctor = null;
        List<Expr> boundArgs = inst.args;
        for (Method m : e.decl().methods) {
            if (m.ret != null) {
                continue;
            }
            // named arguments pick the constructor whose parameter names they use
            List<Expr> trial = new ArrayList<>(inst.args);
            try {
                bindArgs(trial, m.params, inst.pos, ext);
            } catch (CompileError notThisOne) {
                continue;
            }
            if (trial.size() == m.params.size()) {
                ctor = m;
                boundArgs = trial;
            }
        }
        if (boundArgs != inst.args) {
            List<Expr> bound = boundArgs;
            inst.args.clear();
            inst.args.addAll(bound);
        }
        if (ctor == null) {
            throw new CompileError(inst.pos, "no constructor of " + ext + " takes " + inst.args.size() + " argument(s)");
        }
        Map<String, Type> bind = new HashMap<>();
        for (int i = 0; i < e.decl().typeParams.size(); i++) {
            bind.put(e.decl().typeParams.get(i), e.args().get(i));
        }
        for (int i = 0; i < inst.args.size(); i++) {
            Type pt = subst(ctor.params.get(i).type == null ? resolveMethodParamType(e.decl(), ctor, ctor.params.get(i))
                    : ctor.params.get(i).type, bind);
            constant(inst.args.get(i), s, pt);
        }
        if (ext.equals("register")) {
            Type elem = e.args().get(0);
            if (!(elem instanceof Type.Bits || elem instanceof Type.Bool)) {
                throw CompileError.unsupported(inst.pos, "register of " + elem + " (p4sim registers hold bit<N>, int<N> or bool)");
            }
        }
        inst.type = t;
        s.declare(inst.pos, inst.name, inst);
    }

    /**
     * {@code value_set<T>(size) name;}: only in parsers; T is bit<N>, or a struct or tuple of bit<N> fields
     * (one per select key), at most 64 bits in all.
     */
    private void checkValueSet(Instantiation inst, NamedRef ref, Scope s) {
        if (!inParser) {
            throw new CompileError(inst.pos, "value_set can only be declared in a parser");
        }
        Type elem = resolveType(ref.args.get(0));
        boolean ok = elem instanceof Type.Bits;
        if (elem instanceof Type.Struct st) {
            ok = !st.fields().isEmpty() && st.fields().stream().allMatch(f -> f.type() instanceof Type.Bits);
        }
        if (elem instanceof Type.Tuple tu) {
            ok = !tu.elements().isEmpty() && tu.elements().stream().allMatch(t -> t instanceof Type.Bits);
        }
        if (!ok) {
            throw CompileError.unsupported(inst.pos, "value_set of " + elem + " (bit<N> or a struct of bit<N> fields)");
        }
        if (elem.bitWidth() > 64) {
            throw CompileError.unsupported(inst.pos, "value_set of a value wider than 64 bits");
        }
        if (inst.args.size() != 1) {
            throw new CompileError(inst.pos, "value_set takes one argument (its size)");
        }
        BigInteger size = constant(inst.args.get(0), s, new Type.InfInt());
        if (size.signum() <= 0 || size.bitLength() > 20) {
            throw new CompileError(inst.args.get(0).pos, "value_set size must be a positive constant");
        }
        inst.type = new Type.ValueSet(elem, size.intValue());
        s.declare(inst.pos, inst.name, inst);
    }

    /** A select case whose keyset is a value set: its element type must match the select keys. */
    private boolean valueSetKeyset(SourcePos pos, List<Expr> keysets, List<Type> keyTypes, Scope s) {
        if (keysets.size() != 1 || !(keysets.get(0) instanceof Name n) || !(s.lookup(n.name) instanceof Instantiation inst)
                || !(inst.type instanceof Type.ValueSet vs)) {
            return false;
        }
        n.decl = inst;
        n.type = vs;
        List<Type> elems = switch (vs.element()) {
            case Type.Struct st -> st.fields().stream().map(Type.FieldT::type).toList();
            case Type.Tuple tu -> tu.elements();
            default -> List.of(vs.element());
        };
        if (!elems.equals(keyTypes)) {
            throw new CompileError(pos, "value_set " + n.name + " of " + vs.element() + " does not match the select key types " + keyTypes);
        }
        return true;
    }

    // ---------------------------------------------------------------- expressions

    /** Assigns a type to {@code e}; {@code expected} only guides untyped integer literals. */
    Type checkExpr(Expr e, Scope s, Type expected) {
        Type t = computeType(e, s, expected);
        e.type = t;
        return t;
    }

    private Type computeType(Expr e, Scope s, Type expected) {
        switch (e) {
            case IntLit l -> {
                if (l.width < 0) {
                    return new Type.InfInt();
                }
                if (l.width > 2048) {
                    throw new CompileError(l.pos, "literal width too large");
                }
                Type.Bits b = new Type.Bits(l.width, l.signed);
                BigInteger max = l.signed ? BigInteger.ONE.shiftLeft(l.width - 1) : BigInteger.ONE.shiftLeft(l.width);
                if (l.value.compareTo(max) >= 0) {
                    truncated(l.pos, l.value, b);
                }
                return b;
            }
            case BoolLit b -> {
                return new Type.Bool();
            }
            case StringLit str -> {
                return new Type.Str();
            }
            case DontCare d -> {
                return new Type.DontCare();
            }
            case Name n -> {
                return nameType(n, s);
            }
            case Member m -> {
                return memberType(m, s);
            }
            case Index ix -> {
                Type tt = checkExpr(ix.target, s, null);
                if (tt instanceof Type.Tuple tu) {
                    BigInteger v = constant(ix.index, s, new Type.InfInt());
                    if (v.signum() < 0 || v.compareTo(BigInteger.valueOf(tu.elements().size())) >= 0) {
                        throw new CompileError(ix.index.pos, "tuple index out of bounds (size " + tu.elements().size() + ")");
                    }
                    return tu.elements().get(v.intValue());
                }
                if (!(tt instanceof Type.Stack st)) {
                    throw new CompileError(ix.pos, "indexing requires a header stack, not " + tt);
                }
                Type it = checkExpr(ix.index, s, null);
                if (it instanceof Type.InfInt) {
                    BigInteger v = constEval.tryEval(ix.index);
                    if (v == null || v.signum() < 0 || v.intValue() >= st.size()) {
                        throw new CompileError(ix.index.pos, "header stack index out of bounds (size " + st.size() + ")");
                    }
                    coerce(ix.index, new Type.Bits(32, false));
                } else if (!(it instanceof Type.Bits)) {
                    // int<N> indices too, as p4c accepts them: a negative one is out of bounds like a too large one
                    throw new CompileError(ix.index.pos, "header stack index must be bit<N> or int<N>, not " + it);
                }
                return st.element();
            }
            case Slice sl -> {
                Type tt = checkExpr(sl.target, s, null);
                if (!(tt instanceof Type.Bits b)) {
                    throw new CompileError(sl.pos, "slice requires bit<N> or int<N>, not " + tt);
                }
                BigInteger hi = constant(sl.hi, s, new Type.InfInt());
                BigInteger lo = constant(sl.lo, s, new Type.InfInt());
                if (lo.signum() < 0 || hi.compareTo(lo) < 0 || hi.intValue() >= b.width()) {
                    throw new CompileError(sl.pos, "slice [" + hi + ":" + lo + "] out of range for " + b);
                }
                sl.hiBit = hi.intValue();
                sl.loBit = lo.intValue();
                return new Type.Bits(sl.hiBit - sl.loBit + 1, false);
            }
            case Unary u -> {
                return unaryType(u, s, expected);
            }
            case Binary b -> {
                return binaryType(b, s, expected);
            }
            case Conditional c -> {
                checkExpr(c.cond, s, new Type.Bool());
                requireType(c.cond, new Type.Bool());
                Type a = checkExpr(c.then, s, expected);
                Type b = checkExpr(c.otherwise, s, expected);
                Type t = unify(c.then, c.otherwise, c.pos);
                if (t instanceof Type.InfInt) {
                    if (expected instanceof Type.Bits) {
                        coerce(c.then, expected);
                        coerce(c.otherwise, expected);
                        return expected;
                    }
                    throw new CompileError(c.pos, "cannot infer the width of ?: with untyped integer branches");
                }
                return t;
            }
            case Cast c -> {
                return castType(c, s);
            }
            case Call c -> {
                return callType(c, s);
            }
            case ListExpr l when expected instanceof Type.Header || expected instanceof Type.Struct -> {
                return initializerType(l.pos, expected, null, l.elements, s);
            }
            case ListExpr l when expected instanceof Type.Tuple tu && tu.elements().size() == l.elements.size() -> {
                // a tuple value: each element takes the tuple's element type (literals get its width)
                for (int i = 0; i < l.elements.size(); i++) {
                    checkExpr(l.elements.get(i), s, tu.elements().get(i));
                    coerce(l.elements.get(i), tu.elements().get(i));
                }
                return expected;
            }
            case StructInit si -> {
                if (!(expected instanceof Type.Header || expected instanceof Type.Struct)) {
                    throw new CompileError(si.pos, "cannot tell the struct or header type of { f = e } here"
                            + (expected == null ? "" : " (" + expected + " expected)"));
                }
                return initializerType(si.pos, expected, si.names, si.values, s);
            }
            case InvalidHeader ih -> {
                if (!(expected instanceof Type.Header)) {
                    throw new CompileError(ih.pos, "{#} (the invalid header) needs a header type here"
                            + (expected == null ? "" : ", not " + expected));
                }
                return expected;
            }
            case NamedArg na -> throw new CompileError(na.pos, "named argument '" + na.name + "' is only allowed in a call's argument list");
            case ListExpr l -> {
                List<Type> ts = new ArrayList<>();
                for (Expr x : l.elements) {
                    Type t = checkExpr(x, s, null);
                    if (t instanceof Type.InfInt) {
                        throw new CompileError(x.pos, "integer literal in a list needs a width (e.g. 8w0)");
                    }
                    ts.add(t);
                }
                return new Type.Tuple(ts);
            }
            case Mask m -> throw new CompileError(m.pos, "'&&&' is only allowed in select cases and table entries");
            case Range r -> throw new CompileError(r.pos, "'..' is only allowed in select cases and table entries");
            case DefaultKey d -> throw new CompileError(d.pos, "'default' is only allowed as a keyset");
            default -> throw CompileError.unsupported(e.pos, e.getClass().getSimpleName() + " expression");
        }
    }

    /**
     * A struct or header initialiser: {@code {a, b}} (fields in order) or {@code {f = a, g = b}}
     * ({@code names} given: every field exactly once). Literals take their field's width. A header
     * built this way is valid.
     */
    private Type initializerType(SourcePos pos, Type t, List<String> names, List<Expr> values, Scope s) {
        List<Type.FieldT> fields = t instanceof Type.Header h ? h.fields() : ((Type.Struct) t).fields();
        if (values.size() != fields.size()) {
            throw new CompileError(pos, t + " has " + fields.size() + " field(s) but the initialiser gives " + values.size());
        }
        for (int i = 0; i < values.size(); i++) {
            Type.FieldT field = fields.get(i);
            if (names != null) {
                String n = names.get(i);
                field = fields.stream().filter(x -> x.name().equals(n)).findFirst()
                        .orElseThrow(() -> new CompileError(values.get(names.indexOf(n)).pos, t + " has no field '" + n + "'"));
                if (names.indexOf(n) != i) {
                    throw new CompileError(values.get(i).pos, "field '" + n + "' initialised twice");
                }
            }
            checkExpr(values.get(i), s, field.type());
            coerce(values.get(i), field.type());
        }
        return t;
    }

    /** An initialiser all of whose leaves are compile-time constants (nested initialisers allowed). */
    private boolean isConstantInitialiser(Expr e) {
        return switch (e) {
            case ListExpr l -> l.elements.stream().allMatch(this::isConstantInitialiser);
            case StructInit si -> si.values.stream().allMatch(this::isConstantInitialiser);
            case InvalidHeader ih -> true;
            default -> constEval.tryEval(e) != null;
        };
    }

    private static boolean isInitialiser(Expr e) {
        return e instanceof ListExpr || e instanceof StructInit || e instanceof InvalidHeader;
    }

    private Type nameType(Name n, Scope s) {
        Object d = s.lookup(n.name);
        if (d == null) {
            throw new CompileError(n.pos, "undeclared identifier '" + n.name + "'");
        }
        n.decl = d;
        return switch (d) {
            case Param p -> p.type;
            case VarDecl v -> v.type;
            case ConstDecl c -> c.value.type;
            case Instantiation i -> i.type;
            case TableDecl t -> new Type.Table(t);
            case ActionDecl a -> new Type.Action(a);
            case Type.TypeName tn -> tn;
            case MatchKindMember mk -> matchKindType;
            case ExternDecl ex -> throw new CompileError(n.pos, "extern '" + n.name + "' used as a value");
            default -> throw new CompileError(n.pos, "'" + n.name + "' cannot be used as a value");
        };
    }

    private Type memberType(Member m, Scope s) {
        Type t = checkExpr(m.target, s, null);
        switch (t) {
            case Type.TypeName tn when tn.denoted() instanceof Type.Enum en -> {
                if (!en.members().contains(m.member)) {
                    throw new CompileError(m.pos, en.name() + " has no member '" + m.member + "'");
                }
                return en;
            }
            case Type.Header h -> {
                Type.FieldT f = h.field(m.member);
                if (f == null) {
                    if (Set.of("isValid", "setValid", "setInvalid").contains(m.member)) {
                        throw new CompileError(m.pos, m.member + " must be called");
                    }
                    throw new CompileError(m.pos, "header " + h.name() + " has no field '" + m.member + "'");
                }
                return f.type();
            }
            case Type.Struct st -> {
                Type.FieldT f = st.field(m.member);
                if (f == null) {
                    throw new CompileError(m.pos, "struct " + st.name() + " has no field '" + m.member + "'");
                }
                return f.type();
            }
            case Type.HeaderUnion u -> {
                Type.FieldT f = u.field(m.member);
                if (f == null) {
                    if (m.member.equals("isValid")) {
                        throw new CompileError(m.pos, m.member + " must be called");
                    }
                    throw new CompileError(m.pos, "header_union " + u.name() + " has no member '" + m.member + "'");
                }
                return f.type();
            }
            case Type.Stack st -> {
                switch (m.member) {
                    case "next", "last" -> {
                        if (!inParser) {
                            throw new CompileError(m.pos, "'" + m.member + "' of a header stack is only allowed in parsers");
                        }
                        return st.element();
                    }
                    case "size", "nextIndex", "lastIndex" -> {
                        return new Type.Bits(32, false);
                    }
                    default -> throw new CompileError(m.pos, "header stack has no member '" + m.member + "'");
                }
            }
            case Type.ApplyResult ar -> {
                if (m.member.equals("hit") || m.member.equals("miss")) {
                    return new Type.Bool();
                }
                if (m.member.equals("action_run")) {
                    throw new CompileError(m.pos, "action_run is only allowed as a switch subject");
                }
                throw new CompileError(m.pos, "table apply result has no member '" + m.member + "'");
            }
            default -> throw new CompileError(m.pos, "type " + t + " has no member '" + m.member + "'");
        }
    }

    private Type unaryType(Unary u, Scope s, Type expected) {
        Type t = checkExpr(u.operand, s, expected);
        switch (u.op) {
            case "!" -> {
                requireType(u.operand, new Type.Bool());
                return t;
            }
            case "~" -> {
                if (t instanceof Type.InfInt && expected instanceof Type.Bits) {
                    coerce(u.operand, expected);
                    return expected;
                }
                if (!(t instanceof Type.Bits)) {
                    throw new CompileError(u.pos, "'~' requires bit<N> or int<N>, not " + t);
                }
                return t;
            }
            default -> {
                if (!(t instanceof Type.Bits || t instanceof Type.InfInt)) {
                    throw new CompileError(u.pos, "unary '" + u.op + "' requires a number, not " + t);
                }
                return t;
            }
        }
    }

    private Type binaryType(Binary b, Scope s, Type expected) {
        String op = b.op;
        switch (op) {
            case "&&", "||" -> {
                checkExpr(b.left, s, new Type.Bool());
                checkExpr(b.right, s, new Type.Bool());
                requireType(b.left, new Type.Bool());
                requireType(b.right, new Type.Bool());
                return new Type.Bool();
            }
            case "==", "!=" -> {
                if (isInitialiser(b.left) && !isInitialiser(b.right)) {
                    // {a, b} == h: the initialiser takes the other operand's type
                    checkExpr(b.right, s, null);
                    checkExpr(b.left, s, b.right.type);
                } else {
                    checkExpr(b.left, s, null);
                    checkExpr(b.right, s, b.left.type);
                }
                Type t = unify(b.left, b.right, b.pos);
                if (!(Type.isScalar(t) || t instanceof Type.InfInt || t instanceof Type.Varbit || isStructured(t))) {
                    throw CompileError.unsupported(b.pos, "comparison of " + t + " values");
                }
                return new Type.Bool();
            }
            case "<", ">", "<=", ">=" -> {
                checkExpr(b.left, s, null);
                checkExpr(b.right, s, b.left.type);
                Type t = unify(b.left, b.right, b.pos);
                if (!(t instanceof Type.Bits || t instanceof Type.InfInt)) {
                    throw new CompileError(b.pos, "'" + op + "' requires numbers, not " + t);
                }
                return new Type.Bool();
            }
            case "<<", ">>" -> {
                Type l = checkExpr(b.left, s, expected);
                Type r = checkExpr(b.right, s, null);
                if (!(l instanceof Type.Bits || l instanceof Type.InfInt)) {
                    throw new CompileError(b.pos, "shift requires a number on the left, not " + l);
                }
                if (r instanceof Type.Bits rb && rb.signed() || !(r instanceof Type.Bits || r instanceof Type.InfInt)) {
                    throw new CompileError(b.right.pos, "shift amount must be unsigned bit<N> or an integer, not " + r);
                }
                if (r instanceof Type.InfInt) {
                    BigInteger v = constEval.tryEval(b.right);
                    if (v == null || v.signum() < 0) {
                        throw new CompileError(b.right.pos, "shift amount must be a non-negative constant");
                    }
                }
                if (l instanceof Type.InfInt && !(r instanceof Type.InfInt)) {
                    if (expected instanceof Type.Bits) {
                        coerce(b.left, expected);
                        return expected;
                    }
                    throw new CompileError(b.pos, "cannot infer the width of the left operand of a shift");
                }
                return l;
            }
            case "++" -> {
                Type l = checkExpr(b.left, s, null);
                Type r = checkExpr(b.right, s, null);
                if (!(l instanceof Type.Bits lb) || !(r instanceof Type.Bits rb)) {
                    throw new CompileError(b.pos, "'++' requires bit<N>/int<N> operands with known widths, not " + l + " and " + r);
                }
                return new Type.Bits(lb.width() + rb.width(), lb.signed());
            }
            default -> {
                // + - * / % & | ^ |+| |-|
                checkExpr(b.left, s, expected);
                checkExpr(b.right, s, b.left.type instanceof Type.Bits ? b.left.type : expected);
                if (b.left.type instanceof Type.InfInt && b.right.type instanceof Type.Bits) {
                    checkExpr(b.left, s, b.right.type);
                }
                Type t = unify(b.left, b.right, b.pos);
                if (!(t instanceof Type.Bits || t instanceof Type.InfInt)) {
                    throw new CompileError(b.pos, "'" + op + "' requires numbers, not " + t);
                }
                if ((op.equals("/") || op.equals("%")) && t instanceof Type.Bits bt && bt.signed()) {
                    throw new CompileError(b.pos, "'" + op + "' is not defined on signed int<N>");
                }
                if ((op.equals("|+|") || op.equals("|-|")) && t instanceof Type.InfInt) {
                    throw new CompileError(b.pos, "saturating '" + op + "' requires fixed-width operands");
                }
                if ((op.equals("/") || op.equals("%")) && t instanceof Type.Bits) {
                    BigInteger d = constEval.tryEval(b.right);
                    if (d != null && d.signum() == 0) {
                        throw new CompileError(b.pos, "division by zero");
                    }
                }
                return t;
            }
        }
    }

    /** Headers, structs, header unions, stacks and tuples: compared field by field (P4-16 8.x equality). */
    private static boolean isStructured(Type t) {
        return t instanceof Type.Header || t instanceof Type.Struct || t instanceof Type.HeaderUnion
                || t instanceof Type.Stack || t instanceof Type.Tuple;
    }

    /** Makes both operands the same type, turning an untyped literal into the other side's type. */
    private Type unify(Expr a, Expr b, SourcePos pos) {
        if (a.type instanceof Type.InfInt && !(b.type instanceof Type.InfInt)) {
            coerce(a, b.type);
            return b.type;
        }
        if (b.type instanceof Type.InfInt && !(a.type instanceof Type.InfInt)) {
            coerce(b, a.type);
            return a.type;
        }
        if (!a.type.equals(b.type)) {
            throw new CompileError(pos, "operands have different types: " + a.type + " and " + b.type);
        }
        return a.type;
    }

    private Type castType(Cast c, Scope s) {
        Type to = resolveType(c.target);
        Type from = checkExpr(c.operand, s, to instanceof Type.Bits ? to : null);
        boolean ok = switch (to) {
            case Type.Bits tb -> from instanceof Type.Bits || from instanceof Type.InfInt
                    || (from instanceof Type.Bool && tb.width() == 1 && !tb.signed())
                    || (from instanceof Type.Enum en && en.underlying() != null);
            case Type.Bool bo -> (from instanceof Type.Bits fb && fb.width() == 1 && !fb.signed())
                    || from instanceof Type.Bool || from instanceof Type.InfInt;
            case Type.Enum en -> en.underlying() != null && (from instanceof Type.Bits || from instanceof Type.InfInt
                    || from.equals(en));
            case Type.InfInt ii -> from instanceof Type.InfInt;
            default -> from.equals(to);
        };
        if (!ok) {
            throw new CompileError(c.pos, "cannot cast " + from + " to " + to);
        }
        if (from instanceof Type.Bits fb && to instanceof Type.Bits tb && fb.signed() != tb.signed() && fb.width() != tb.width()) {
            // P4-16 only converts between bit<W> and int<W> of the same width; p4c rejects the rest
            throw new CompileError(c.pos, "cannot cast " + from + " to " + to + " directly (change width and signedness in two casts)");
        }
        if (to instanceof Type.Bool && from instanceof Type.InfInt) {
            BigInteger v = constEval.tryEval(c.operand);
            if (v == null || !(v.equals(BigInteger.ZERO) || v.equals(BigInteger.ONE))) {
                throw new CompileError(c.pos, "only 0 and 1 can be cast to bool");
            }
        }
        return to;
    }

    // ---------------------------------------------------------------- calls

    private Type callType(Call c, Scope s) {
        if (c.callee instanceof Member m) {
            if (m.member.equals("apply") && m.target instanceof Name direct && currentControl != null && !inAction
                    && s.lookup(direct.name) instanceof ControlDecl applied && applied.ctorParams.isEmpty()) {
                // P4-16's direct application (C.apply(...) without declaring an instance): an anonymous
                // instance named after the control, as p4c makes one; compiled with the control's locals
                Instantiation anonymous = new Instantiation(m.pos, new NamedRef(m.pos, applied.name, List.of()),
                        List.of(), applied.name, List.of());
                checkInstantiation(anonymous, s);
                currentControl.locals.add(anonymous);
            }
            Type tt = checkExpr(m.target, s, null);
            switch (tt) {
                case Type.Header h -> {
                    switch (m.member) {
                        case "isValid" -> {
                            noArgs(c);
                            c.target = new CallTarget.HeaderMethod("isValid");
                            return new Type.Bool();
                        }
                        case "setValid", "setInvalid" -> {
                            noArgs(c);
                            requireLvalue(m.target, s);
                            c.target = new CallTarget.HeaderMethod(m.member);
                            return new Type.Void();
                        }
                        default -> throw new CompileError(m.pos, "header has no method '" + m.member + "'");
                    }
                }
                case Type.HeaderUnion u -> {
                    if (!m.member.equals("isValid")) {
                        throw new CompileError(m.pos, "header_union has no method '" + m.member + "'");
                    }
                    noArgs(c);
                    c.target = new CallTarget.HeaderMethod("isValid");
                    return new Type.Bool();
                }
                case Type.Stack st -> {
                    if (!m.member.equals("push_front") && !m.member.equals("pop_front")) {
                        throw new CompileError(m.pos, "header stack has no method '" + m.member + "'");
                    }
                    if (c.args.size() != 1) {
                        throw new CompileError(c.pos, m.member + " takes one argument");
                    }
                    BigInteger n = constant(c.args.get(0), s, new Type.InfInt());
                    if (n.signum() < 0) {
                        throw new CompileError(c.pos, m.member + " count must be non-negative");
                    }
                    requireLvalue(m.target, s);
                    c.target = new CallTarget.StackMethod(m.member);
                    return new Type.Void();
                }
                case Type.Block bl when bl.decl() instanceof ParserDecl pd -> {
                    if (!m.member.equals("apply")) {
                        throw new CompileError(m.pos, "parser instance has no method '" + m.member + "'");
                    }
                    bindArgs(c.args, pd.params, c.pos, "parser " + pd.name);
                    if (c.args.size() != pd.params.size()) {
                        throw new CompileError(c.pos, "parser " + pd.name + " takes " + pd.params.size()
                                + " argument(s), got " + c.args.size());
                    }
                    for (int i = 0; i < c.args.size(); i++) {
                        Param p = pd.params.get(i);
                        Expr a = c.args.get(i);
                        if (p.type instanceof Type.Extern ext) {
                            Type at = checkExpr(a, s, null);
                            if (ext.decl().name.equals("packet_in")) {
                                if (!(a instanceof Name n && n.decl instanceof Param) || !at.equals(p.type)) {
                                    throw CompileError.unsupported(a.pos, "passing anything but this parser's packet_in to a sub-parser");
                                }
                                continue;
                            }
                            bindExternArg(m, p, a);
                            continue;
                        }
                        checkArg(a, p, p.type, s);
                    }
                    c.target = new CallTarget.ParserApply(pd);
                    return new Type.Void();
                }
                case Type.Block bl when bl.decl() instanceof ControlDecl || isControlType(bl) -> {
                    // a control instance, or a control-typed constructor parameter (no declaration known
                    // here: the instance bound to it per block instance is applied)
                    ControlDecl cd = bl.decl() instanceof ControlDecl d ? d : null;
                    List<Param> params = cd != null ? cd.params : ((PrototypeDecl) bl.decl()).params;
                    String name = bl.decl().name;
                    if (!m.member.equals("apply")) {
                        throw new CompileError(m.pos, "control instance has no method '" + m.member + "'");
                    }
                    if (inAction) {
                        throw new CompileError(c.pos, "controls cannot be applied inside actions");
                    }
                    bindArgs(c.args, params, c.pos, "control " + name);
                    if (c.args.size() != params.size()) {
                        throw new CompileError(c.pos, "control " + name + " takes " + params.size()
                                + " argument(s), got " + c.args.size());
                    }
                    for (int i = 0; i < c.args.size(); i++) {
                        Param p = params.get(i);
                        if (p.type instanceof Type.Extern) {
                            if (cd == null) {
                                throw CompileError.unsupported(c.args.get(i).pos, "an extern argument to a control passed as a constructor argument");
                            }
                            checkExpr(c.args.get(i), s, null);
                            bindExternArg(m, p, c.args.get(i));
                            continue;
                        }
                        checkArg(c.args.get(i), p, p.type, s);
                    }
                    c.target = new CallTarget.ControlApply(cd);
                    return new Type.Void();
                }
                case Type.Table tb -> {
                    if (!m.member.equals("apply")) {
                        throw new CompileError(m.pos, "table has no method '" + m.member + "'");
                    }
                    noArgs(c);
                    if (inAction || currentFunction != null) {
                        throw new CompileError(c.pos, "tables cannot be applied inside actions or functions");
                    }
                    c.target = new CallTarget.TableApply(tb.decl());
                    return new Type.ApplyResult(tb.decl());
                }
                case Type.Extern ex -> {
                    List<Method> cands = new ArrayList<>();
                    for (Method mm : ex.decl().methods) {
                        if (mm.ret != null && mm.name.equals(m.member) && mm.params.size() == c.args.size()) {
                            cands.add(mm);
                        }
                    }
                    if (cands.isEmpty()) {
                        throw new CompileError(m.pos, "extern " + ex.decl().name + " has no method '" + m.member
                                + "' taking " + c.args.size() + " argument(s)");
                    }
                    Method mm = cands.get(0);
                    bindArgs(c.args, mm.params, c.pos, ex.decl().name + "." + mm.name);
                    Map<String, Type> bind = new HashMap<>();
                    for (int i = 0; i < ex.decl().typeParams.size(); i++) {
                        bind.put(ex.decl().typeParams.get(i), ex.args().get(i));
                    }
                    c.target = new CallTarget.ExternMethod(ex.decl(), mm);
                    return invoke(c, s, ex.decl(), mm, bind);
                }
                default -> throw new CompileError(c.pos, "cannot call a member of " + tt);
            }
        }
        if (c.callee instanceof Name n) {
            Object d = s.lookup(n.name);
            if (d == null) {
                throw new CompileError(n.pos, "undeclared identifier '" + n.name + "'");
            }
            if ((d instanceof ControlDecl || d instanceof ParserDecl) && s.lookup(n.name + FUNCTION_SUFFIX) != null) {
                d = s.lookup(n.name + FUNCTION_SUFFIX); // the extern function that shares the block's name
            }
            n.decl = d;
            if (d instanceof ActionDecl a) {
                if (currentFunction != null) {
                    throw new CompileError(c.pos, "functions cannot call actions");
                }
                if (!c.typeArgs.isEmpty()) {
                    throw new CompileError(c.pos, "actions take no type arguments");
                }
                bindArgs(c.args, a.params, c.pos, "action " + a.name);
                if (c.args.size() != a.params.size()) {
                    throw new CompileError(c.pos, "action " + a.name + " expects " + a.params.size()
                            + " argument(s), got " + c.args.size());
                }
                for (int i = 0; i < c.args.size(); i++) {
                    checkArg(c.args.get(i), a.params.get(i), a.params.get(i).type, s);
                }
                c.target = new CallTarget.ActionCall(a);
                return new Type.Void();
            }
            if (d instanceof FunctionDecl generic && !generic.typeParams.isEmpty()) {
                // named and default arguments first: the type parameters are inferred from arguments in order
                bindArgs(c.args, generic.params, c.pos, "function " + generic.name);
                d = specialise(generic, c, s);
            }
            if (d instanceof FunctionDecl fd) {
                bindArgs(c.args, fd.params, c.pos, "function " + fd.name);
                if (c.args.size() != fd.params.size()) {
                    throw new CompileError(c.pos, "function " + fd.name + " expects " + fd.params.size()
                            + " argument(s), got " + c.args.size());
                }
                for (int i = 0; i < c.args.size(); i++) {
                    checkArg(c.args.get(i), fd.params.get(i), fd.params.get(i).type, s);
                }
                c.target = new CallTarget.FunctionCall(fd);
                return fd.ret;
            }
            if (d instanceof ExternDecl ex && ex.function != null) {
                if (ex.name.equals("verify") && !inParser) {
                    throw new CompileError(c.pos, "verify can only be called in a parser");
                }
                if (ex.name.equals("log_msg") && c.args.size() == 1 && !(c.args.get(0) instanceof NamedArg)) {
                    // log_msg("text"), the data-less form of v1model's log_msg
                    if (!(checkExpr(c.args.get(0), s, null) instanceof Type.Str)) {
                        throw new CompileError(c.args.get(0).pos, "log_msg needs a string, not " + c.args.get(0).type);
                    }
                    c.target = new CallTarget.ExternFunction(ex);
                    return new Type.Void();
                }
                if (ex.name.equals("mark_to_drop") && c.args.isEmpty()) {
                    // the deprecated form p4c's v1model.p4 still declares beside mark_to_drop(standard_metadata):
                    // it drops through the pipeline's own standard metadata (CallCompiler)
                    c.target = new CallTarget.ExternFunction(ex);
                    return new Type.Void();
                }
                c.target = new CallTarget.ExternFunction(ex);
                bindArgs(c.args, ex.function.params, c.pos, ex.name);
                return invoke(c, s, ex, ex.function, new HashMap<>());
            }
            if (d instanceof Instantiation || d instanceof ParserDecl || d instanceof ControlDecl) {
                throw CompileError.unsupported(c.pos, "invoking '" + n.name + "' (sub-parsers and sub-controls)");
            }
            throw new CompileError(c.pos, "'" + n.name + "' is not callable");
        }
        throw CompileError.unsupported(c.pos, "call of a computed expression");
    }

    /**
     * An extern argument of a sub-parser or sub-control: an extern instance (or an extern parameter
     * of the enclosing block) of the parameter's type. The code generator compiles each instance
     * once, so every apply of one instance must pass the same extern.
     */
    private void bindExternArg(Member applied, Param p, Expr a) {
        if (!(a instanceof Name n) || !(n.decl instanceof Instantiation || (n.decl instanceof Param outer && outer.type instanceof Type.Extern))) {
            throw new CompileError(a.pos, "argument for extern parameter '" + p.name + "' must name an extern instance");
        }
        if (!a.type.equals(p.type)) {
            throw new CompileError(a.pos, "type mismatch: expected " + p.type + " but found " + a.type);
        }
        Instantiation inst = (Instantiation) ((Name) applied.target).decl;
        Object before = inst.externArgs.putIfAbsent(p, n.decl);
        if (before != null && before != n.decl) {
            throw CompileError.unsupported(a.pos, "applying instance " + inst.name + " with a different extern for '" + p.name
                    + "' than before (each instance is bound to one extern per parameter)");
        }
    }

    /**
     * Puts named arguments ({@code f(x = 1, y = 2)}) in parameter order and fills omitted parameters
     * with their declared default values, in place. Positional and named arguments cannot be mixed
     * (P4-16 8.20). With too many or too few positional arguments (and no defaults to fill) the list
     * is left alone for the caller's count check.
     */
    private static void bindArgs(List<Expr> args, List<Param> params, SourcePos pos, String what) {
        boolean named = args.stream().anyMatch(a -> a instanceof NamedArg);
        if (!named && args.size() >= params.size()) {
            return;
        }
        Expr[] bound = new Expr[params.size()];
        if (named) {
            for (Expr a : args) {
                if (!(a instanceof NamedArg na)) {
                    throw new CompileError(a.pos, "positional and named arguments cannot be mixed in a call of " + what);
                }
                int i = 0;
                while (i < params.size() && !params.get(i).name.equals(na.name)) {
                    i++;
                }
                if (i == params.size()) {
                    throw new CompileError(na.pos, what + " has no parameter '" + na.name + "'");
                }
                if (bound[i] != null) {
                    throw new CompileError(na.pos, "argument '" + na.name + "' given twice");
                }
                bound[i] = na.value;
            }
        } else {
            for (int i = 0; i < args.size(); i++) {
                bound[i] = args.get(i);
            }
        }
        for (int i = 0; i < bound.length; i++) {
            if (bound[i] == null) {
                Param p = params.get(i);
                if (p.defaultValue == null) {
                    if (!named) {
                        return;
                    }
                    throw new CompileError(pos, "no argument for parameter '" + p.name + "' of " + what + " (it has no default value)");
                }
                bound[i] = p.defaultValue;
            }
        }
        args.clear();
        args.addAll(Arrays.asList(bound));
    }

    private static void noArgs(Call c) {
        if (!c.args.isEmpty()) {
            throw new CompileError(c.pos, "this method takes no arguments");
        }
    }

    /** Checks a call to a (possibly generic) extern method or function; binds type variables from arguments. */
    private Type invoke(Call c, Scope s, ExternDecl ext, Method m, Map<String, Type> bind) {
        if (c.args.size() != m.params.size()) {
            throw new CompileError(c.pos, m.name + " expects " + m.params.size() + " argument(s), got " + c.args.size());
        }
        if (!c.typeArgs.isEmpty()) {
            if (c.typeArgs.size() != m.typeParams.size()) {
                throw new CompileError(c.pos, m.name + " expects " + m.typeParams.size() + " type argument(s)");
            }
            for (int i = 0; i < c.typeArgs.size(); i++) {
                bind.put(m.typeParams.get(i), resolveType(c.typeArgs.get(i)));
            }
        }
        List<Type> ptypes = new ArrayList<>();
        for (Param p : m.params) {
            ptypes.add(resolveMethodParamType(ext, m, p));
        }
        // first pass: arguments with their own types bind type variables
        for (int i = 0; i < c.args.size(); i++) {
            Type pt = subst(ptypes.get(i), bind);
            Expr a = c.args.get(i);
            Type at = checkExpr(a, s, pt instanceof Type.Var ? null : pt);
            if (pt instanceof Type.Var v && !(at instanceof Type.InfInt) && !(at instanceof Type.DontCare)) {
                bind.put(v.name(), at);
            }
        }
        for (int i = 0; i < c.args.size(); i++) {
            Param p = m.params.get(i);
            Type pt = subst(ptypes.get(i), bind);
            if (pt instanceof Type.Var) {
                if (c.args.get(i).type instanceof Type.InfInt && p.dir != Direction.OUT && p.dir != Direction.INOUT) {
                    continue; // an untyped constant for an unconstrained 'in' parameter (e.g. hash's max)
                }
                throw new CompileError(c.args.get(i).pos, "cannot infer the type of argument '" + p.name + "' of " + m.name);
            }
            checkArg(c.args.get(i), p, pt, s);
        }
        if (m.name.equals("execute_meter") && !(c.args.get(1).type instanceof Type.Bits mb && mb.width() >= 2)) {
            throw new CompileError(c.args.get(1).pos, "meter color must be stored in a bit<N> with N >= 2");
        }
        if (m.name.equals("extract") && !(c.args.get(0).type instanceof Type.Header)) {
            throw new CompileError(c.pos, "extract requires a header, not " + c.args.get(0).type);
        }
        if (m.name.equals("extract")) {
            boolean varbit = ((Type.Header) c.args.get(0).type).fields().stream().anyMatch(f -> f.type() instanceof Type.Varbit);
            if (varbit != (c.args.size() == 2)) {
                throw new CompileError(c.pos, varbit ? c.args.get(0).type + " has a varbit field: extract it with a length in bits"
                        : "extract with a length needs a header with a varbit field, not " + c.args.get(0).type);
            }
        }
        Type looked = bind.get("T");
        if (m.name.equals("lookahead") && !(looked instanceof Type.Bits || isFixedWidthStruct(looked)
                || (looked instanceof Type.Header lh && lh.fields().stream().noneMatch(f -> f.type() instanceof Type.Varbit)))) {
            throw CompileError.unsupported(c.pos, "lookahead of " + looked + " (bit<N>, headers and structs of fixed-width fields are supported)");
        }
        if (m.name.equals("emit") && !(c.args.get(0).type instanceof Type.Header || c.args.get(0).type instanceof Type.Struct
                || c.args.get(0).type instanceof Type.Stack || c.args.get(0).type instanceof Type.HeaderUnion)) {
            throw new CompileError(c.pos, "emit requires a header, header stack or struct of headers, not " + c.args.get(0).type);
        }
        Type ret = m.ret == null ? new Type.Void() : subst(resolveMethodRet(ext, m), bind);
        if (ret instanceof Type.Var) {
            throw new CompileError(c.pos, "cannot infer the result type of " + m.name + "; give a type argument");
        }
        return ret;
    }

    private Type resolveMethodParamType(ExternDecl ext, Method m, Param p) {
        Set<String> saved = typeVars;
        Set<String> vars = new HashSet<>(ext.typeParams);
        vars.addAll(m.typeParams);
        typeVars = vars;
        try {
            return resolveType(p.typeRef);
        } finally {
            typeVars = saved;
        }
    }

    private Type resolveMethodRet(ExternDecl ext, Method m) {
        Set<String> saved = typeVars;
        Set<String> vars = new HashSet<>(ext.typeParams);
        vars.addAll(m.typeParams);
        typeVars = vars;
        try {
            return resolveType(m.ret);
        } finally {
            typeVars = saved;
        }
    }

    private static Type subst(Type t, Map<String, Type> bind) {
        if (t instanceof Type.Var v && bind.containsKey(v.name())) {
            return bind.get(v.name());
        }
        return t;
    }

    /**
     * An argument for a parameter: out/inout need an l-value (or _ for out), in coerces literals. p4c refuses
     * {@code _} for an inout parameter too (its call unification accepts a don't-care only for out): the
     * callee would read a value nobody gave.
     */
    private void checkArg(Expr a, Param p, Type pt, Scope s) {
        if (a.type == null) {
            checkExpr(a, s, pt);
        }
        if (a instanceof DontCare) {
            if (p.dir != Direction.OUT) {
                throw new CompileError(a.pos, "'_' can only be passed to an out parameter, not to "
                        + (p.dir == Direction.INOUT ? "inout" : p.dir == Direction.IN ? "in" : "directionless")
                        + " parameter '" + p.name + "'");
            }
            a.type = pt;
            return;
        }
        if (p.dir == Direction.OUT || p.dir == Direction.INOUT) {
            requireLvalue(a, s);
        }
        coerce(a, pt);
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A constant that does not fit its type: p4c accepts it with a warning and keeps its low bits (two's
     * complement for int&lt;N&gt;), which is what {@link ConstEval#normalize} computes from the node's type.
     */
    private void truncated(SourcePos pos, BigInteger value, Type.Bits b) {
        warnings.add(pos + ": warning: value " + value + " does not fit in " + b + "; truncated to "
                + ConstEval.normalize(value, b) + " as p4c does");
    }

    /** Requires {@code e} to have type {@code t}, turning an untyped integer literal into {@code t}. */
    void coerce(Expr e, Type t) {
        if (t == null || e.type.equals(t)) {
            return;
        }
        if (e.type instanceof Type.InfInt && t instanceof Type.Bits b) {
            BigInteger v = constEval.tryEval(e);
            if (v == null) {
                throw new CompileError(e.pos, "untyped integer expression is not a compile-time constant");
            }
            BigInteger lo = BigInteger.ONE.shiftLeft(b.width() - 1).negate();
            BigInteger hi = BigInteger.ONE.shiftLeft(b.width());
            if (b.signed()) {
                hi = BigInteger.ONE.shiftLeft(b.width() - 1);
            }
            if (v.compareTo(lo) < 0 || v.compareTo(hi) >= 0) {
                truncated(e.pos, v, b);
            }
            e.type = t;
            return;
        }
        if (e.type instanceof Type.InfInt && t instanceof Type.InfInt) {
            return;
        }
        if (e.type instanceof Type.Tuple tu && t instanceof Type.Tuple want) {
            if (e instanceof ListExpr || tu.equals(want)) {
                return; // list expressions are checked element by element where they are used
            }
        }
        throw new CompileError(e.pos, "type mismatch: expected " + t + " but found " + e.type);
    }

    private void requireType(Expr e, Type t) {
        if (!e.type.equals(t)) {
            throw new CompileError(e.pos, "expected " + t + " but found " + e.type);
        }
    }

    /** Assignment targets: writable variables and parameters, their fields, stack elements and slices. */
    private void requireLvalue(Expr e, Scope s) {
        switch (e) {
            case Name n -> {
                boolean ok = switch (n.decl) {
                    case VarDecl v -> !v.isConst;
                    case Param p -> p.dir == Direction.OUT || p.dir == Direction.INOUT;
                    default -> false;
                };
                if (!ok) {
                    throw new CompileError(e.pos, "'" + n.name + "' is not assignable (a constant, an 'in' or directionless parameter, or not a variable)");
                }
            }
            case Member m -> {
                if (m.target.type instanceof Type.Stack && !(m.member.equals("next") || m.member.equals("last"))) {
                    throw new CompileError(e.pos, "header stack member '" + m.member + "' is not assignable");
                }
                if (m.target.type instanceof Type.TypeName || m.target.type instanceof Type.ApplyResult) {
                    throw new CompileError(e.pos, "expression is not assignable");
                }
                requireLvalue(m.target, s);
            }
            case Index ix -> requireLvalue(ix.target, s);
            case Slice sl -> requireLvalue(sl.target, s);
            default -> throw new CompileError(e.pos, "expression is not assignable");
        }
    }
}
