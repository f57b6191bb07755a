package dev.innet.p4sim.frontend;

import java.math.BigInteger;
import java.util.List;

/**
 * The P4-16 abstract syntax tree. Every node carries its source position. Expressions carry a
 * {@link Type} slot and names a resolved-declaration slot that the {@link TypeChecker} fills in;
 * the compiler only ever reads checked trees.
 */
public final class Ast {
    private Ast() { }

    public abstract static class Node {
        public final SourcePos pos;

        Node(SourcePos pos) {
            this.pos = pos;
        }
    }

    public record Annotation(SourcePos pos, String name, List<Token> body) {
        /** The string of {@code @name("...")} among {@code annos}, or null when there is none. */
        public static String nameIn(List<Annotation> annos) {
            for (Annotation a : annos) {
                if (a.name().equals("name")) {
                    if (a.body().size() != 1 || a.body().get(0).kind() != Token.Kind.STRING) {
                        throw new CompileError(a.pos(), "@name takes one string");
                    }
                    return a.body().get(0).text();
                }
            }
            return null;
        }
    }

    // ---------------------------------------------------------------- type references (syntax)

    public abstract static class TypeRef extends Node {
        TypeRef(SourcePos pos) {
            super(pos);
        }
    }

    /** {@code bit<N>} or {@code int<N>}; the width is a compile-time expression. */
    public static final class BitsRef extends TypeRef {
        public final Expr width;
        public final boolean signed;

        public BitsRef(SourcePos pos, Expr width, boolean signed) {
            super(pos);
            this.width = width;
            this.signed = signed;
        }
    }

    /** A keyword or named type: bool, error, string, void, int (arbitrary precision), or a declared name. */
    public static final class NamedRef extends TypeRef {
        public final String name;
        public final List<TypeRef> args;

        public NamedRef(SourcePos pos, String name, List<TypeRef> args) {
            super(pos);
            this.name = name;
            this.args = args;
        }
    }

    /** {@code varbit<N>}: a variable-length bit string of at most N bits. */
    public static final class VarbitRef extends TypeRef {
        public final Expr maxWidth;

        public VarbitRef(SourcePos pos, Expr maxWidth) {
            super(pos);
            this.maxWidth = maxWidth;
        }
    }

    public static final class StackRef extends TypeRef {
        public final TypeRef element;
        public final Expr size;

        public StackRef(SourcePos pos, TypeRef element, Expr size) {
            super(pos);
            this.element = element;
            this.size = size;
        }
    }

    // ---------------------------------------------------------------- expressions

    public abstract static class Expr extends Node {
        /** Set by the type checker. */
        public Type type;

        Expr(SourcePos pos) {
            super(pos);
        }
    }

    public static final class IntLit extends Expr {
        public final BigInteger value;
        public final int width; // -1: arbitrary-precision literal
        public final boolean signed;

        public IntLit(SourcePos pos, BigInteger value, int width, boolean signed) {
            super(pos);
            this.value = value;
            this.width = width;
            this.signed = signed;
        }
    }

    public static final class BoolLit extends Expr {
        public final boolean value;

        public BoolLit(SourcePos pos, boolean value) {
            super(pos);
            this.value = value;
        }
    }

    public static final class StringLit extends Expr {
        public final String value;

        public StringLit(SourcePos pos, String value) {
            super(pos);
            this.value = value;
        }
    }

    public static final class Name extends Expr {
        public final String name;
        /** Set by the type checker: the declaration this name refers to. */
        public Object decl;

        public Name(SourcePos pos, String name) {
            super(pos);
            this.name = name;
        }
    }

    public static final class Member extends Expr {
        public final Expr target;
        public final String member;

        public Member(SourcePos pos, Expr target, String member) {
            super(pos);
            this.target = target;
            this.member = member;
        }
    }

    public static final class Index extends Expr {
        public final Expr target;
        public final Expr index;

        public Index(SourcePos pos, Expr target, Expr index) {
            super(pos);
            this.target = target;
            this.index = index;
        }
    }

    public static final class Slice extends Expr {
        public final Expr target;
        public final Expr hi;
        public final Expr lo;
        /** Set by the type checker: the constant bounds. */
        public int hiBit;
        public int loBit;

        public Slice(SourcePos pos, Expr target, Expr hi, Expr lo) {
            super(pos);
            this.target = target;
            this.hi = hi;
            this.lo = lo;
        }
    }

    public static final class Unary extends Expr {
        public final String op; // "!", "~", "-", "+"
        public final Expr operand;

        public Unary(SourcePos pos, String op, Expr operand) {
            super(pos);
            this.op = op;
            this.operand = operand;
        }
    }

    public static final class Binary extends Expr {
        public final String op;
        public final Expr left;
        public final Expr right;

        public Binary(SourcePos pos, String op, Expr left, Expr right) {
            super(pos);
            this.op = op;
            this.left = left;
            this.right = right;
        }
    }

    public static final class Conditional extends Expr {
        public final Expr cond;
        public final Expr then;
        public final Expr otherwise;

        public Conditional(SourcePos pos, Expr cond, Expr then, Expr otherwise) {
            super(pos);
            this.cond = cond;
            this.then = then;
            this.otherwise = otherwise;
        }
    }

    public static final class Cast extends Expr {
        public final TypeRef target;
        public final Expr operand;

        public Cast(SourcePos pos, TypeRef target, Expr operand) {
            super(pos);
            this.target = target;
            this.operand = operand;
        }
    }

    public static final class Call extends Expr {
        public final Expr callee;
        public final List<TypeRef> typeArgs;
        public final List<Expr> args;
        /** Set by the type checker: what is being called (see {@link TypeChecker.CallTarget}). */
        public Object target;

        public Call(SourcePos pos, Expr callee, List<TypeRef> typeArgs, List<Expr> args) {
            super(pos);
            this.callee = callee;
            this.typeArgs = typeArgs;
            this.args = args;
        }
    }

    /** {@code { a, b, c }}: a list/tuple expression (hash inputs, checksum field lists, digests). */
    public static final class ListExpr extends Expr {
        public final List<Expr> elements;

        public ListExpr(SourcePos pos, List<Expr> elements) {
            super(pos);
            this.elements = elements;
        }
    }

    /** Keyset expressions: {@code v &&& m}, {@code lo .. hi}, {@code default}, {@code _}. */
    public static final class Mask extends Expr {
        public final Expr value;
        public final Expr mask;

        public Mask(SourcePos pos, Expr value, Expr mask) {
            super(pos);
            this.value = value;
            this.mask = mask;
        }
    }

    public static final class Range extends Expr {
        public final Expr lo;
        public final Expr hi;

        public Range(SourcePos pos, Expr lo, Expr hi) {
            super(pos);
            this.lo = lo;
            this.hi = hi;
        }
    }

    public static final class DefaultKey extends Expr {
        public DefaultKey(SourcePos pos) {
            super(pos);
        }
    }

    public static final class DontCare extends Expr {
        public DontCare(SourcePos pos) {
            super(pos);
        }
    }

    /** {@code name = value} in an argument list; the type checker puts arguments in parameter order. */
    public static final class NamedArg extends Expr {
        public final String name;
        public final Expr value;

        public NamedArg(SourcePos pos, String name, Expr value) {
            super(pos);
            this.name = name;
            this.value = value;
        }
    }

    /** {@code { f1 = e1, f2 = e2 }}: a struct or header value with named fields. */
    public static final class StructInit extends Expr {
        public final List<String> names;
        public final List<Expr> values;

        public StructInit(SourcePos pos, List<String> names, List<Expr> values) {
            super(pos);
            this.names = names;
            this.values = values;
        }
    }

    /** {@code {#}}: the invalid header (of the type the context expects). */
    public static final class InvalidHeader extends Expr {
        public InvalidHeader(SourcePos pos) {
            super(pos);
        }
    }

    // ---------------------------------------------------------------- statements

    public abstract static class Stmt extends Node {
        Stmt(SourcePos pos) {
            super(pos);
        }
    }

    public static final class Assign extends Stmt {
        public final Expr lhs;
        public final Expr rhs;

        public Assign(SourcePos pos, Expr lhs, Expr rhs) {
            super(pos);
            this.lhs = lhs;
            this.rhs = rhs;
        }
    }

    public static final class CallStmt extends Stmt {
        public final Call call;

        public CallStmt(SourcePos pos, Call call) {
            super(pos);
            this.call = call;
        }
    }

    public static final class If extends Stmt {
        public final Expr cond;
        public final Stmt then;
        public final Stmt otherwise; // may be null

        public If(SourcePos pos, Expr cond, Stmt then, Stmt otherwise) {
            super(pos);
            this.cond = cond;
            this.then = then;
            this.otherwise = otherwise;
        }
    }

    public static final class Block extends Stmt {
        public final List<Stmt> stmts;

        public Block(SourcePos pos, List<Stmt> stmts) {
            super(pos);
            this.stmts = stmts;
        }
    }

    public static final class Exit extends Stmt {
        public Exit(SourcePos pos) {
            super(pos);
        }
    }

    public static final class Return extends Stmt {
        public final Expr value; // null for plain return

        public Return(SourcePos pos, Expr value) {
            super(pos);
            this.value = value;
        }
    }

    public static final class Empty extends Stmt {
        public Empty(SourcePos pos) {
            super(pos);
        }
    }

    /** {@code for (init; cond; updates) body}; {@code cond} may be null (no condition). */
    public static final class For extends Stmt {
        public final List<Stmt> init;
        public final Expr cond;
        public final List<Stmt> updates;
        public final Stmt body;

        public For(SourcePos pos, List<Stmt> init, Expr cond, List<Stmt> updates, Stmt body) {
            super(pos);
            this.init = init;
            this.cond = cond;
            this.updates = updates;
            this.body = body;
        }
    }

    /** {@code for (T x in lo .. hi) body} or {@code for (T x in stack) body}. */
    public static final class ForIn extends Stmt {
        public final VarDecl var;
        public final Expr collection;
        public final Stmt body;

        public ForIn(SourcePos pos, VarDecl var, Expr collection, Stmt body) {
            super(pos);
            this.var = var;
            this.collection = collection;
            this.body = body;
        }
    }

    public static final class Break extends Stmt {
        public Break(SourcePos pos) {
            super(pos);
        }
    }

    public static final class Continue extends Stmt {
        public Continue(SourcePos pos) {
            super(pos);
        }
    }

    /** {@code switch (t.apply().action_run) { a: {...} b: c: {...} default: {...} }}. */
    public static final class Switch extends Stmt {
        public final Expr subject;
        public final List<SwitchCase> cases;

        public Switch(SourcePos pos, Expr subject, List<SwitchCase> cases) {
            super(pos);
            this.subject = subject;
            this.cases = cases;
        }
    }

    /**
     * A case: {@code value} is the label expression (an action name for action_run switches, a
     * constant for value switches) or null for {@code default}; {@code label} is its text when it is
     * a plain name. A fall-through label has a null body.
     */
    public record SwitchCase(SourcePos pos, String label, Expr value, Block body) {
        public boolean isDefault() {
            return value == null;
        }
    }

    /** A local variable or constant ({@code isConst}). */
    public static final class VarDecl extends Stmt {
        public final TypeRef typeRef;
        public final String name;
        public final Expr init; // may be null
        public final boolean isConst;
        public Type type;

        public VarDecl(SourcePos pos, TypeRef typeRef, String name, Expr init, boolean isConst) {
            super(pos);
            this.typeRef = typeRef;
            this.name = name;
            this.init = init;
            this.isConst = isConst;
        }
    }

    /** An extern (or parser/control) instantiation: {@code register<bit<32>>(16) r;}. */
    public static final class Instantiation extends Stmt {
        public final TypeRef typeRef;
        public final List<Expr> args;
        public final String name;
        public final List<Annotation> annotations;
        public Type type;
        /**
         * Set by the type checker for a parser or control instance whose type has extern parameters:
         * each such parameter and the declaration (an extern instance or an enclosing extern parameter)
         * every {@code apply} passes for it.
         */
        public final java.util.Map<Param, Object> externArgs = new java.util.IdentityHashMap<>();

        public Instantiation(SourcePos pos, TypeRef typeRef, List<Expr> args, String name, List<Annotation> annotations) {
            super(pos);
            this.typeRef = typeRef;
            this.args = args;
            this.name = name;
            this.annotations = annotations;
        }
    }

    // ---------------------------------------------------------------- declarations

    public enum Direction { NONE, IN, OUT, INOUT }

    public static final class Param extends Node {
        /** Not final: a directionless parameter of a function is read as {@code in} by the checker, as p4c does. */
        public Direction dir;
        public final TypeRef typeRef;
        public final String name;
        public final boolean optional;
        public Type type;
        /** {@code = value} in the declaration (a default for omitted arguments), or null. */
        public Expr defaultValue;
        /** The control-plane name from {@code @name}, or null. */
        public String controlPlaneName;

        public Param(SourcePos pos, Direction dir, TypeRef typeRef, String name, boolean optional) {
            super(pos);
            this.dir = dir;
            this.typeRef = typeRef;
            this.name = name;
            this.optional = optional;
        }
    }

    public static final class Field extends Node {
        public final TypeRef typeRef;
        public final String name;
        public final List<Annotation> annotations;

        public Field(SourcePos pos, TypeRef typeRef, String name, List<Annotation> annotations) {
            super(pos);
            this.typeRef = typeRef;
            this.name = name;
            this.annotations = annotations;
        }
    }

    public abstract static class Decl extends Node {
        public final String name;

        Decl(SourcePos pos, String name) {
            super(pos);
            this.name = name;
        }
    }

    public static final class ConstDecl extends Decl {
        public final TypeRef typeRef;
        public final Expr value;

        public ConstDecl(SourcePos pos, String name, TypeRef typeRef, Expr value) {
            super(pos, name);
            this.typeRef = typeRef;
            this.value = value;
        }
    }

    public static final class TypedefDecl extends Decl {
        public final TypeRef typeRef;
        /** {@code type T N;} (a new type) rather than {@code typedef}. */
        public final boolean isNewType;

        public TypedefDecl(SourcePos pos, String name, TypeRef typeRef) {
            this(pos, name, typeRef, false);
        }

        public TypedefDecl(SourcePos pos, String name, TypeRef typeRef, boolean isNewType) {
            super(pos, name);
            this.typeRef = typeRef;
            this.isNewType = isNewType;
        }
    }

    /** header, struct or header_union. */
    public static final class StructDecl extends Decl {
        public final boolean isHeader;
        public final boolean isUnion;
        public final List<Field> fields;
        /** e.g. {@code @controller_header("packet_in")}, which the P4Info generator reads. */
        public final List<Annotation> annotations;

        public StructDecl(SourcePos pos, String name, boolean isHeader, List<Field> fields, List<Annotation> annotations) {
            this(pos, name, isHeader, false, fields, annotations);
        }

        public StructDecl(SourcePos pos, String name, boolean isHeader, boolean isUnion, List<Field> fields,
                List<Annotation> annotations) {
            super(pos, name);
            this.isHeader = isHeader;
            this.isUnion = isUnion;
            this.fields = fields;
            this.annotations = annotations;
        }
    }

    /** enum (optionally serializable: {@code enum bit<8> E { A = 1 }}), error and match_kind. */
    public static final class EnumDecl extends Decl {
        public enum Kind { ENUM, ERROR, MATCH_KIND }

        public final Kind kind;
        public final TypeRef underlying; // null unless serializable
        public final List<String> members;
        public final List<Expr> values; // parallel to members for serializable enums
        public final List<SourcePos> memberPos;

        public EnumDecl(SourcePos pos, String name, Kind kind, TypeRef underlying, List<String> members,
                        List<Expr> values, List<SourcePos> memberPos) {
            super(pos, name);
            this.kind = kind;
            this.underlying = underlying;
            this.members = members;
            this.values = values;
            this.memberPos = memberPos;
        }
    }

    public static final class Method extends Node {
        public final String name;
        public final TypeRef ret; // null for constructors
        public final List<String> typeParams;
        public final List<Param> params;

        public Method(SourcePos pos, String name, TypeRef ret, List<String> typeParams, List<Param> params) {
            super(pos);
            this.name = name;
            this.ret = ret;
            this.typeParams = typeParams;
            this.params = params;
        }
    }

    /** An extern object ({@code methods} holds constructors and methods) or an extern function ({@code function}). */
    public static final class ExternDecl extends Decl {
        public final List<String> typeParams;
        public final List<Method> methods;
        public final Method function;

        public ExternDecl(SourcePos pos, String name, List<String> typeParams, List<Method> methods, Method function) {
            super(pos, name);
            this.typeParams = typeParams;
            this.methods = methods;
            this.function = function;
        }
    }

    /** A parser or control type declaration, or a package (prototype only, no body). */
    public static final class PrototypeDecl extends Decl {
        public enum Kind { PARSER, CONTROL, PACKAGE }

        public final Kind kind;
        public final List<String> typeParams;
        public final List<Param> params;

        public PrototypeDecl(SourcePos pos, String name, Kind kind, List<String> typeParams, List<Param> params) {
            super(pos, name);
            this.kind = kind;
            this.typeParams = typeParams;
            this.params = params;
        }
    }

    public static final class ActionDecl extends Decl {
        public final List<Param> params;
        public final Block body;
        public final List<Annotation> annotations;

        public ActionDecl(SourcePos pos, String name, List<Param> params, Block body, List<Annotation> annotations) {
            super(pos, name);
            this.params = params;
            this.body = body;
            this.annotations = annotations;
        }
    }

    /** A function: {@code T name(params) { ... }} with {@code return e;}. */
    public static final class FunctionDecl extends Decl {
        public final TypeRef retRef;
        public final List<Param> params;
        public final Block body;
        public Type ret;
        /** Type parameters of a generic function ({@code T f<T>(in T x)}); empty otherwise. */
        public List<String> typeParams = List.of();
        /** For a generic function: parses its text again, giving a fresh tree for each specialisation. */
        public java.util.function.Supplier<FunctionDecl> reparse;
        /** For a specialisation: the type each type parameter stands for. */
        public java.util.Map<String, Type> typeBindings = java.util.Map.of();

        public FunctionDecl(SourcePos pos, String name, TypeRef retRef, List<Param> params, Block body) {
            super(pos, name);
            this.retRef = retRef;
            this.params = params;
            this.body = body;
        }
    }

    /** A key field; {@code name} is its control-plane name from {@code @name}, or null. */
    public record KeyElement(SourcePos pos, Expr expr, String matchKind, String name) {
        public KeyElement(SourcePos pos, Expr expr, String matchKind) {
            this(pos, expr, matchKind, null);
        }
    }

    /** An action named in a table; {@code scope} is "defaultonly", "tableonly" or "" (from annotations). */
    public record ActionRef(SourcePos pos, String name, List<Expr> args, String scope) { }

    /**
     * A const entry. {@code priority} is a P4Runtime priority (larger wins) from {@code priority = N :} or
     * an {@code @priority(N)} before the entry; {@code bmv2Priority} is p4c's {@code @priority(N)} after the
     * action, which p4c hands to bmv2 unchanged, where the smaller number wins (null when absent).
     */
    public record Entry(SourcePos pos, List<Expr> keys, ActionRef action, Expr priority, Expr bmv2Priority) { }

    public static final class TableDecl extends Decl {
        public final List<KeyElement> keys;
        public final List<ActionRef> actions;
        public final ActionRef defaultAction; // may be null: NoAction
        public final boolean defaultConst;
        public final List<Entry> entries; // null if none
        public final Expr size; // may be null
        public final String directCounter; // may be null
        public final String directMeter; // may be null
        /** e.g. {@code @id(N)}, which the P4Info generator reads. */
        public final List<Annotation> annotations;
        /**
         * {@code implementation = ...}: an action_profile/action_selector instance's name, or (written
         * inline) a synthetic instance named after the table; null for a direct table.
         */
        public String implementation;
        public Instantiation inlineImplementation;
        /** Annotations written on the {@code implementation} property ({@code @max_group_size(N)}: the P4Info reads them). */
        public List<Annotation> implementationAnnotations = List.of();

        public TableDecl(SourcePos pos, String name, List<KeyElement> keys, List<ActionRef> actions,
                         ActionRef defaultAction, boolean defaultConst, List<Entry> entries, Expr size,
                         String directCounter, String directMeter, List<Annotation> annotations) {
            super(pos, name);
            this.annotations = annotations;
            this.keys = keys;
            this.actions = actions;
            this.defaultAction = defaultAction;
            this.defaultConst = defaultConst;
            this.entries = entries;
            this.size = size;
            this.directCounter = directCounter;
            this.directMeter = directMeter;
        }
    }

    public record SelectCase(SourcePos pos, List<Expr> keysets, String next) { }

    /** A parser state; the transition is either direct ({@code next}) or a select. */
    public static final class State extends Decl {
        public final List<Stmt> stmts;
        public final String next; // direct transition; null when select is used
        public final List<Expr> selectOn; // null for a direct transition
        public final List<SelectCase> cases;
        public final SourcePos transitionPos;

        public State(SourcePos pos, String name, List<Stmt> stmts, String next, List<Expr> selectOn,
                     List<SelectCase> cases, SourcePos transitionPos) {
            super(pos, name);
            this.stmts = stmts;
            this.next = next;
            this.selectOn = selectOn;
            this.cases = cases;
            this.transitionPos = transitionPos;
        }
    }

    public static final class ParserDecl extends Decl {
        public final List<Param> params;
        /** Constructor parameters ({@code parser P(...)(bit<8> k)}): compile-time values per instance. */
        public List<Param> ctorParams = List.of();
        public final List<Stmt> locals;
        public final List<State> states;

        public ParserDecl(SourcePos pos, String name, List<Param> params, List<Stmt> locals, List<State> states) {
            super(pos, name);
            this.params = params;
            this.locals = locals;
            this.states = states;
        }
    }

    public static final class ControlDecl extends Decl {
        public final List<Param> params;
        /** Constructor parameters ({@code control C(...)(bit<8> k)}): compile-time values per instance. */
        public List<Param> ctorParams = List.of();
        public final List<Node> locals; // VarDecl, Instantiation, ActionDecl, TableDecl
        public final Block apply;

        public ControlDecl(SourcePos pos, String name, List<Param> params, List<Node> locals, Block apply) {
            super(pos, name);
            this.params = params;
            this.locals = locals;
            this.apply = apply;
        }
    }

    /** A top-level instantiation such as {@code V1Switch(p(), v(), i(), e(), c(), d()) main;}. */
    public static final class TopInstantiation extends Decl {
        public final Instantiation inst;

        public TopInstantiation(Instantiation inst) {
            super(inst.pos, inst.name);
            this.inst = inst;
        }
    }

    public record Program(List<Decl> decls) { }
}
