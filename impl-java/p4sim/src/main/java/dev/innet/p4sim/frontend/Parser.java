package dev.innet.p4sim.frontend;

import dev.innet.p4sim.frontend.Ast.*;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser for the P4-16 subset p4sim supports. Anything outside it is reported as
 * "unsupported construct" at its position rather than skipped. Operator precedence follows p4c's
 * grammar (bitwise operators bind tighter than comparisons, {@code ++} like {@code +}).
 */
public final class Parser {
    private final List<Token> toks;
    private int p;
    /** Names known to denote types, so {@code (T) x} parses as a cast and {@code T x;} as a declaration. */
    private final Set<String> typeNames = new HashSet<>(Set.of("bit", "int", "bool", "error", "string", "void", "varbit"));

    public Parser(List<Token> toks) {
        this.toks = toks;
    }

    public Program parseProgram() {
        List<Decl> decls = new ArrayList<>();
        while (peek().kind() != Token.Kind.EOF) {
            if (accept(";")) {
                continue;
            }
            decls.add(topDecl());
        }
        return new Program(decls);
    }

    // ---------------------------------------------------------------- token helpers

    private Token peek() {
        return toks.get(p);
    }

    private Token peek(int k) {
        return toks.get(Math.min(p + k, toks.size() - 1));
    }

    private Token next() {
        Token t = toks.get(p);
        if (t.kind() != Token.Kind.EOF) {
            p++;
        }
        return t;
    }

    private boolean accept(String s) {
        if (peek().is(s)) {
            p++;
            return true;
        }
        return false;
    }

    private Token expect(String s) {
        Token t = peek();
        if (!t.is(s)) {
            throw new CompileError(t.pos(), "expected '" + s + "' but found " + t);
        }
        return next();
    }

    private String ident() {
        Token t = peek();
        if (t.kind() != Token.Kind.IDENT) {
            throw new CompileError(t.pos(), "expected an identifier but found " + t);
        }
        next();
        return t.text();
    }

    private CompileError error(String msg) {
        return new CompileError(peek().pos(), msg);
    }

    // ---------------------------------------------------------------- annotations

    private List<Annotation> annotations() {
        List<Annotation> out = new ArrayList<>();
        while (peek().is("@")) {
            SourcePos pos = next().pos();
            String name = ident();
            List<Token> body = new ArrayList<>();
            if (peek().is("(") && peek(-1).adjacentNext()) {
                next();
                int depth = 1;
                while (true) {
                    Token t = next();
                    if (t.kind() == Token.Kind.EOF) {
                        throw new CompileError(pos, "unterminated annotation @" + name);
                    }
                    if (t.is("(")) {
                        depth++;
                    } else if (t.is(")") && --depth == 0) {
                        break;
                    }
                    body.add(t);
                }
            } else if (peek().is("[")) {
                throw CompileError.unsupported(peek().pos(), "structured annotation @" + name + "[...]");
            }
            out.add(new Annotation(pos, name, body));
        }
        return out;
    }

    // ---------------------------------------------------------------- declarations

    private Decl topDecl() {
        List<Annotation> annos = annotations();
        Token t = peek();
        SourcePos pos = t.pos();
        if (t.kind() != Token.Kind.IDENT) {
            throw new CompileError(pos, "expected a declaration but found " + t);
        }
        switch (t.text()) {
            case "const" -> {
                next();
                TypeRef type = typeRef();
                String name = ident();
                expect("=");
                Expr value = expr();
                expect(";");
                return new ConstDecl(pos, name, type, value);
            }
            case "typedef", "type" -> {
                next();
                TypeRef type = typeRef();
                String name = ident();
                expect(";");
                typeNames.add(name);
                return new TypedefDecl(pos, name, type, t.text().equals("type"));
            }
            case "header_union" -> {
                next();
                String name = ident();
                typeNames.add(name);
                return new StructDecl(pos, name, true, true, fields(), annos);
            }
            case "header", "struct" -> {
                next();
                String name = ident();
                typeNames.add(name);
                if (peek().is("<")) {
                    throw CompileError.unsupported(peek().pos(), "generic " + t.text() + " declaration");
                }
                return new StructDecl(pos, name, t.text().equals("header"), fields(), annos);
            }
            case "enum" -> {
                next();
                return enumDecl(pos);
            }
            case "error", "match_kind" -> {
                next();
                List<String> members = new ArrayList<>();
                List<SourcePos> memberPos = new ArrayList<>();
                expect("{");
                do {
                    if (peek().is("}")) {
                        break;
                    }
                    memberPos.add(peek().pos());
                    members.add(ident());
                } while (accept(","));
                expect("}");
                return new EnumDecl(pos, t.text(), t.text().equals("error") ? EnumDecl.Kind.ERROR
                        : EnumDecl.Kind.MATCH_KIND, null, members, List.of(), memberPos);
            }
            case "extern" -> {
                next();
                return externDecl(pos);
            }
            case "parser" -> {
                next();
                return parserDecl(pos);
            }
            case "control" -> {
                next();
                return controlDecl(pos);
            }
            case "package" -> {
                next();
                String name = ident();
                typeNames.add(name);
                List<String> tps = typeParams();
                List<Param> params = params();
                expect(";");
                return new PrototypeDecl(pos, name, PrototypeDecl.Kind.PACKAGE, tps, params);
            }
            case "action" -> {
                return actionDecl(annos);
            }
            case "value_set", "tuple", "varbit", "abstract", "this", "list", "priority" ->
                throw CompileError.unsupported(pos, "'" + t.text() + "'");
            default -> {
                // instantiation "Type(args) name;" or function "T f(params) { ... }"
                TypeRef type = typeRef();
                if (peek().is("(")) {
                    List<Expr> args = args();
                    String name = ident();
                    expect(";");
                    return new TopInstantiation(new Instantiation(pos, type, args, name, annos));
                }
                if (peek().kind() == Token.Kind.IDENT && (peek(1).is("(") || peek(1).is("<"))) {
                    return functionDecl(pos, type);
                }
                throw new CompileError(pos, "expected a declaration but found " + t);
            }
        }
    }

    /**
     * {@code T name(params) { ... }}, the return type already read. A generic function
     * ({@code T f<T>(in T x)}) keeps its tokens and the type names known here, so the type checker can
     * have a fresh tree parsed for each specialisation.
     */
    private FunctionDecl functionDecl(SourcePos pos, TypeRef ret) {
        int start = p;
        String name = ident();
        Set<String> before = new HashSet<>(typeNames);
        List<String> tps = typeParams();
        List<Param> params = params();
        Block body = block();
        FunctionDecl fd = new FunctionDecl(pos, name, ret, params, body);
        if (!tps.isEmpty()) {
            List<Token> text = new ArrayList<>(toks.subList(start, p));
            text.add(new Token(Token.Kind.EOF, "", peek().pos(), false));
            Set<String> names = new HashSet<>(typeNames);
            fd.typeParams = tps;
            fd.reparse = () -> {
                Parser again = new Parser(text);
                again.typeNames.addAll(names);
                return again.functionDecl(pos, ret);
            };
        }
        typeNames.retainAll(before);
        return fd;
    }

    private List<Field> fields() {
        expect("{");
        List<Field> fields = new ArrayList<>();
        while (!accept("}")) {
            List<Annotation> annos = annotations();
            SourcePos pos = peek().pos();
            TypeRef type = typeRef();
            String name = ident();
            expect(";");
            fields.add(new Field(pos, type, name, annos));
        }
        return fields;
    }

    private EnumDecl enumDecl(SourcePos pos) {
        TypeRef underlying = null;
        if (peek().is("bit") || peek().is("int")) {
            underlying = typeRef();
        }
        String name = ident();
        typeNames.add(name);
        expect("{");
        List<String> members = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        List<SourcePos> memberPos = new ArrayList<>();
        do {
            if (peek().is("}")) {
                break;
            }
            memberPos.add(peek().pos());
            members.add(ident());
            if (underlying != null) {
                expect("=");
                values.add(expr());
            }
        } while (accept(","));
        expect("}");
        return new EnumDecl(pos, name, EnumDecl.Kind.ENUM, underlying, members, values, memberPos);
    }

    private List<String> typeParams() {
        List<String> out = new ArrayList<>();
        if (accept("<")) {
            do {
                String n = ident();
                out.add(n);
                typeNames.add(n);
            } while (accept(","));
            expect(">");
        }
        return out;
    }

    private Decl externDecl(SourcePos pos) {
        // extern object: "extern Name<T> { ... }"; extern function: "extern Ret name<T>(params);"
        int save = p;
        if (peek().kind() == Token.Kind.IDENT) {
            String name = next().text();
            Set<String> before = new HashSet<>(typeNames);
            List<String> tps = peek().is("<") ? typeParams() : List.of();
            if (peek().is("{")) {
                typeNames.add(name);
                next();
                List<Method> methods = new ArrayList<>();
                while (!accept("}")) {
                    annotations();
                    SourcePos mpos = peek().pos();
                    if (peek().is(name) && peek(1).is("(")) {
                        next();
                        List<Param> ps = params();
                        expect(";");
                        methods.add(new Method(mpos, name, null, List.of(), ps));
                        continue;
                    }
                    if (peek().is("abstract")) {
                        throw CompileError.unsupported(mpos, "abstract extern method");
                    }
                    TypeRef ret = typeRef();
                    String mname = ident();
                    List<String> mtps = typeParams();
                    List<Param> ps = params();
                    expect(";");
                    methods.add(new Method(mpos, mname, ret, mtps, ps));
                }
                typeNames.retainAll(before);
                typeNames.add(name);
                return new ExternDecl(pos, name, tps, methods, null);
            }
            typeNames.retainAll(before);
            p = save;
        }
        annotations();
        TypeRef ret = typeRef();
        SourcePos fpos = peek().pos();
        String name = ident();
        Set<String> before = new HashSet<>(typeNames);
        List<String> tps = typeParams();
        List<Param> ps = params();
        expect(";");
        typeNames.retainAll(before);
        return new ExternDecl(pos, name, tps, List.of(), new Method(fpos, name, ret, tps, ps));
    }

    private List<Param> params() {
        expect("(");
        List<Param> out = new ArrayList<>();
        if (accept(")")) {
            return out;
        }
        do {
            List<Annotation> annos = annotations();
            boolean optional = annos.stream().anyMatch(a -> a.name().equals("optional"));
            SourcePos pos = peek().pos();
            Direction dir = Direction.NONE;
            if (accept("in")) {
                dir = Direction.IN;
            } else if (accept("out")) {
                dir = Direction.OUT;
            } else if (accept("inout")) {
                dir = Direction.INOUT;
            }
            TypeRef type = typeRef();
            String name = ident();
            Param param = new Param(pos, dir, type, name, optional);
            param.controlPlaneName = Annotation.nameIn(annos);
            if (accept("=")) {
                param.defaultValue = expr();
            }
            out.add(param);
        } while (accept(","));
        expect(")");
        return out;
    }

    /** Name and parameters of a parser or control; {@code prototype} is set when the declaration ends there. */
    private record BlockHeader(String name, List<Param> params, PrototypeDecl prototype, List<Param> ctorParams) {}

    /**
     * The common start of parser and control declarations: name, type parameters, parameters, then
     * either {@code ;} (a prototype, whose type parameters stay local to it) or a body. Generic and
     * constructor-parameterised bodies are unsupported.
     */
    private BlockHeader blockHeader(SourcePos pos, PrototypeDecl.Kind kind, String what) {
        String name = ident();
        Set<String> before = new HashSet<>(typeNames);
        List<String> tps = typeParams();
        List<Param> params = params();
        if (accept(";")) {
            typeNames.retainAll(before);
            typeNames.add(name);
            return new BlockHeader(name, params, new PrototypeDecl(pos, name, kind, tps, params), List.of());
        }
        if (!tps.isEmpty()) {
            throw CompileError.unsupported(pos, "generic " + what + " " + name);
        }
        List<Param> ctorParams = peek().is("(") ? params() : List.of();
        return new BlockHeader(name, params, null, ctorParams);
    }

    private Decl parserDecl(SourcePos pos) {
        BlockHeader header = blockHeader(pos, PrototypeDecl.Kind.PARSER, "parser");
        if (header.prototype() != null) {
            return header.prototype();
        }
        String name = header.name();
        List<Param> params = header.params();
        expect("{");
        List<Stmt> locals = new ArrayList<>();
        List<State> states = new ArrayList<>();
        while (!accept("}")) {
            List<Annotation> annos = annotations();
            if (peek().is("state")) {
                states.add(state());
            } else {
                locals.add(localDecl(annos, false));
            }
        }
        ParserDecl pd = new ParserDecl(pos, name, params, locals, states);
        pd.ctorParams = header.ctorParams();
        return pd;
    }

    private State state() {
        SourcePos pos = expect("state").pos();
        String name = ident();
        expect("{");
        List<Stmt> stmts = new ArrayList<>();
        while (!peek().is("transition") && !peek().is("}")) {
            stmts.add(statement());
        }
        if (!peek().is("transition")) {
            throw new CompileError(peek().pos(), "parser state '" + name + "' has no transition statement");
        }
        SourcePos tpos = next().pos();
        State st;
        if (peek().is("select")) {
            next();
            expect("(");
            List<Expr> on = new ArrayList<>();
            do {
                on.add(expr());
            } while (accept(","));
            expect(")");
            expect("{");
            List<SelectCase> cases = new ArrayList<>();
            while (!accept("}")) {
                SourcePos cpos = peek().pos();
                List<Expr> keysets = keysetList();
                expect(":");
                String target = ident();
                expect(";");
                cases.add(new SelectCase(cpos, keysets, target));
            }
            accept(";");
            st = new State(pos, name, stmts, null, on, cases, tpos);
        } else {
            String target = ident();
            expect(";");
            st = new State(pos, name, stmts, target, null, null, tpos);
        }
        expect("}");
        return st;
    }

    private Decl controlDecl(SourcePos pos) {
        BlockHeader header = blockHeader(pos, PrototypeDecl.Kind.CONTROL, "control");
        if (header.prototype() != null) {
            return header.prototype();
        }
        String name = header.name();
        List<Param> params = header.params();
        expect("{");
        List<Node> locals = new ArrayList<>();
        while (!peek().is("apply")) {
            if (peek().kind() == Token.Kind.EOF || peek().is("}")) {
                throw new CompileError(peek().pos(), "control '" + name + "' has no apply block");
            }
            List<Annotation> annos = annotations();
            if (peek().is("action")) {
                locals.add(actionDecl(annos));
            } else if (peek().is("table")) {
                locals.add(tableDecl(annos));
            } else {
                locals.add(localDecl(annos, true));
            }
        }
        next();
        Block apply = block();
        expect("}");
        ControlDecl cd = new ControlDecl(pos, name, params, locals, apply);
        cd.ctorParams = header.ctorParams();
        return cd;
    }

    private ActionDecl actionDecl(List<Annotation> annos) {
        SourcePos pos = expect("action").pos();
        String name = ident();
        List<Param> params = params();
        return new ActionDecl(pos, name, params, block(), annos);
    }

    private TableDecl tableDecl(List<Annotation> annos) {
        SourcePos pos = expect("table").pos();
        String name = ident();
        // Older p4c front ends accepted (and printed) an empty parameter list, `table t() { ... }`;
        // programs of p4c's own test corpus still carry it. It means nothing, so it is skipped.
        if (peek().is("(")) {
            expect("(");
            expect(")");
        }
        expect("{");
        List<KeyElement> keys = new ArrayList<>();
        List<ActionRef> actions = null;
        ActionRef defaultAction = null;
        boolean defaultConst = false;
        List<Entry> entries = null;
        Expr size = null;
        String directCounter = null;
        String directMeter = null;
        String implementation = null;
        Instantiation inlineImplementation = null;
        List<Annotation> implementationAnnos = List.of();
        while (!accept("}")) {
            List<Annotation> propAnnos = annotations();
            boolean isConst = accept("const");
            SourcePos ppos = peek().pos();
            String prop = ident();
            expect("=");
            switch (prop) {
                case "key" -> {
                    expect("{");
                    while (!accept("}")) {
                        SourcePos kpos = peek().pos();
                        Expr e = expr();
                        expect(":");
                        String kind = ident();
                        List<Annotation> kannos = annotations();
                        expect(";");
                        keys.add(new KeyElement(kpos, e, kind, Annotation.nameIn(kannos)));
                    }
                }
                case "actions" -> {
                    actions = new ArrayList<>();
                    expect("{");
                    while (!accept("}")) {
                        List<Annotation> aannos = annotations();
                        String scope = aannos.stream().anyMatch(x -> x.name().equals("defaultonly")) ? "defaultonly"
                                : aannos.stream().anyMatch(x -> x.name().equals("tableonly")) ? "tableonly" : "";
                        SourcePos apos = peek().pos();
                        String a = ident();
                        // arguments here bind the action's directional parameters (P4-16 14.2.1.2)
                        List<Expr> args = peek().is("(") ? args() : new ArrayList<>();
                        expect(";");
                        actions.add(new ActionRef(apos, a, args, scope));
                    }
                }
                case "default_action" -> {
                    defaultAction = actionRef();
                    defaultConst = isConst;
                    expect(";");
                }
                case "entries" -> {
                    if (!isConst) {
                        throw CompileError.unsupported(ppos, "non-const table entries");
                    }
                    entries = new ArrayList<>();
                    expect("{");
                    while (!accept("}")) {
                        List<Annotation> eannos = annotations();
                        SourcePos epos = peek().pos();
                        Expr priority = null;
                        for (Annotation a : eannos) {
                            if (a.name().equals("priority")) {
                                priority = new Parser(withEof(a.body())).expr();
                            }
                        }
                        if (peek().is("priority") && peek(1).is("=")) {
                            next();
                            next();
                            priority = expr();
                            expect(":");
                        }
                        List<Expr> keysets = keysetList();
                        expect(":");
                        ActionRef a = actionRef();
                        // p4c's grammar puts an entry's annotations after its action (key : action @priority(3);)
                        Expr bmv2Priority = null;
                        for (Annotation after : annotations()) {
                            if (after.name().equals("priority")) {
                                bmv2Priority = new Parser(withEof(after.body())).expr();
                            }
                        }
                        expect(";");
                        entries.add(new Entry(epos, keysets, a, priority, bmv2Priority));
                    }
                    accept(";");
                }
                case "size" -> {
                    size = expr();
                    expect(";");
                }
                case "counters" -> {
                    directCounter = ident();
                    expect(";");
                }
                case "meters" -> {
                    directMeter = ident();
                    expect(";");
                }
                case "implementation" -> {
                    Expr impl = expr();
                    expect(";");
                    implementationAnnos = propAnnos;
                    if (impl instanceof Name n) {
                        implementation = n.name;
                    } else if (impl instanceof Call c && c.callee instanceof Name ext) {
                        // action_profile(N) / action_selector(algo, N, W) written in place: an instance
                        // named after the table, so a @name on the table names it too
                        implementation = name;
                        inlineImplementation = new Instantiation(impl.pos, new NamedRef(ext.pos, ext.name, List.of()),
                                c.args, name, annos);
                    } else {
                        throw new CompileError(ppos, "implementation must be an action_profile/action_selector instance");
                    }
                }
                default -> throw CompileError.unsupported(ppos, "table property '" + prop + "'");
            }
        }
        if (actions == null) {
            throw new CompileError(pos, "table '" + name + "' has no actions property");
        }
        TableDecl table = new TableDecl(pos, name, keys, actions, defaultAction, defaultConst, entries, size,
                directCounter, directMeter, annos);
        table.implementation = implementation;
        table.inlineImplementation = inlineImplementation;
        table.implementationAnnotations = implementationAnnos;
        return table;
    }

    private static List<Token> withEof(List<Token> body) {
        List<Token> out = new ArrayList<>(body);
        SourcePos last = body.isEmpty() ? SourcePos.BUILTIN : body.get(body.size() - 1).pos();
        out.add(new Token(Token.Kind.EOF, "", last, false));
        return out;
    }

    private ActionRef actionRef() {
        SourcePos pos = peek().pos();
        String name = ident();
        List<Expr> args = peek().is("(") ? args() : new ArrayList<>();
        return new ActionRef(pos, name, args, "");
    }

    /** A parser or control local: constant, variable or instantiation. */
    private Stmt localDecl(List<Annotation> annos, boolean inControl) {
        SourcePos pos = peek().pos();
        if (accept("const")) {
            TypeRef type = typeRef();
            String name = ident();
            expect("=");
            Expr init = expr();
            expect(";");
            return new VarDecl(pos, type, name, init, true);
        }
        if (peek().is("value_set")) {
            return valueSetDecl(pos, annos);
        }
        TypeRef type = typeRef();
        if (peek().is("(")) {
            List<Expr> args = args();
            String name = ident();
            expect(";");
            return new Instantiation(pos, type, args, name, annos);
        }
        String name = ident();
        Expr init = accept("=") ? expr() : null;
        expect(";");
        return new VarDecl(pos, type, name, init, false);
    }

    /** {@code value_set<T>(size) name;} in a parser: an instantiation of the pseudo-type value_set<T>. */
    private Instantiation valueSetDecl(SourcePos pos, List<Annotation> annos) {
        next();
        expect("<");
        TypeRef elem = typeRef();
        expect(">");
        List<Expr> args = args();
        String name = ident();
        expect(";");
        return new Instantiation(pos, new NamedRef(pos, "value_set", List.of(elem)), args, name, annos);
    }

    // ---------------------------------------------------------------- types

    private TypeRef typeRef() {
        SourcePos pos = peek().pos();
        TypeRef base;
        if (peek().is("bit") || peek().is("int")) {
            boolean signed = next().text().equals("int");
            if (accept("<")) {
                Expr width;
                if (peek().is("(")) {
                    width = primary();
                } else {
                    Token w = next();
                    if (w.kind() == Token.Kind.INT) {
                        width = intLiteral(w);
                    } else if (w.kind() == Token.Kind.IDENT) {
                        width = new Name(w.pos(), w.text());
                    } else {
                        throw new CompileError(w.pos(), "expected a width but found " + w);
                    }
                }
                expect(">");
                base = new BitsRef(pos, width, signed);
            } else if (signed) {
                base = new NamedRef(pos, "int", List.of());
            } else {
                base = new BitsRef(pos, new IntLit(pos, BigInteger.ONE, -1, false), false);
            }
        } else if (peek().is("varbit")) {
            next();
            expect("<");
            Token w = next();
            Expr width = w.kind() == Token.Kind.INT ? intLiteral(w) : new Name(w.pos(), w.text());
            expect(">");
            base = new VarbitRef(pos, width);
        } else if (peek().is("tuple")) {
            next();
            expect("<");
            List<TypeRef> elems = new ArrayList<>();
            do {
                elems.add(typeRef());
            } while (accept(","));
            expect(">");
            base = new NamedRef(pos, "tuple", elems);
        } else if (peek().is("list")) {
            throw CompileError.unsupported(pos, peek().text() + " type");
        } else {
            String name = ident();
            List<TypeRef> args = new ArrayList<>();
            if (peek().is("<") && typeNames.contains(name)) {
                next();
                do {
                    args.add(typeRef());
                } while (accept(","));
                expect(">");
            }
            base = new NamedRef(pos, name, args);
        }
        while (peek().is("[")) {
            next();
            Expr size = expr();
            expect("]");
            base = new StackRef(pos, base, size);
        }
        return base;
    }

    // ---------------------------------------------------------------- statements

    private Block block() {
        SourcePos pos = expect("{").pos();
        List<Stmt> stmts = new ArrayList<>();
        while (!accept("}")) {
            if (peek().kind() == Token.Kind.EOF) {
                throw new CompileError(pos, "unterminated block");
            }
            stmts.add(statement());
        }
        return new Block(pos, stmts);
    }

    private Stmt statement() {
        List<Annotation> annos = annotations();
        Token t = peek();
        SourcePos pos = t.pos();
        if (t.is("{")) {
            return block();
        }
        if (t.is(";")) {
            next();
            return new Empty(pos);
        }
        if (t.kind() == Token.Kind.IDENT) {
            switch (t.text()) {
                case "if" -> {
                    next();
                    expect("(");
                    Expr c = expr();
                    expect(")");
                    Stmt then = statement();
                    Stmt otherwise = accept("else") ? statement() : null;
                    return new If(pos, c, then, otherwise);
                }
                case "exit" -> {
                    next();
                    expect(";");
                    return new Exit(pos);
                }
                case "return" -> {
                    next();
                    Expr v = peek().is(";") ? null : expr();
                    expect(";");
                    return new Return(pos, v);
                }
                case "switch" -> {
                    return switchStmt();
                }
                case "const" -> {
                    return localDecl(annos, false);
                }
                case "for" -> {
                    return forStmt();
                }
                case "break" -> {
                    next();
                    expect(";");
                    return new Break(pos);
                }
                case "continue" -> {
                    next();
                    expect(";");
                    return new Continue(pos);
                }
                case "while", "do" ->
                    throw CompileError.unsupported(pos, "'" + t.text() + "' statement (P4-16 has none; use for)");
                default -> { }
            }
            if (startsDeclaration()) {
                return localDecl(annos, false);
            }
        }
        Stmt st = assignmentOrCall(pos);
        expect(";");
        return st;
    }

    /** Compound assignment operators and the binary operator each stands for. */
    private static final java.util.Map<String, String> COMPOUND = java.util.Map.ofEntries(
            java.util.Map.entry("+=", "+"), java.util.Map.entry("-=", "-"), java.util.Map.entry("*=", "*"),
            java.util.Map.entry("/=", "/"), java.util.Map.entry("%=", "%"), java.util.Map.entry("&=", "&"),
            java.util.Map.entry("|=", "|"), java.util.Map.entry("^=", "^"), java.util.Map.entry("<<=", "<<"),
            java.util.Map.entry(">>=", ">>"), java.util.Map.entry("|+|=", "|+|"), java.util.Map.entry("|-|=", "|-|"));

    /**
     * {@code lhs = e}, {@code lhs op= e} or a call, without the ';'. A compound assignment becomes
     * {@code lhs = lhs op e} with the left-hand side parsed a second time (its own nodes); p4c
     * evaluates the target once, so a target containing a call is rejected rather than run twice.
     */
    private Stmt assignmentOrCall(SourcePos pos) {
        int lhsStart = p;
        Expr lhs = expr();
        if (accept("=")) {
            Expr rhs = expr();
            return new Assign(pos, lhs, rhs);
        }
        String op = peek().kind() == Token.Kind.PUNCT ? COMPOUND.get(peek().text()) : null;
        if (op != null) {
            SourcePos opPos = next().pos();
            if (containsCall(lhs)) {
                throw CompileError.unsupported(opPos, "compound assignment to a target containing a call");
            }
            Expr rhs = expr();
            int after = p;
            p = lhsStart;
            Expr again = binary(LEVELS.length); // the target is a postfix expression
            p = after;
            return new Assign(pos, lhs, new Binary(opPos, op, again, rhs));
        }
        if (lhs instanceof Call c) {
            return new CallStmt(pos, c);
        }
        throw new CompileError(pos, "expression statement must be a call or an assignment");
    }

    private static boolean containsCall(Expr e) {
        return switch (e) {
            case Call c -> true;
            case Member m -> containsCall(m.target);
            case Index ix -> containsCall(ix.target) || containsCall(ix.index);
            case Slice sl -> containsCall(sl.target);
            default -> false;
        };
    }

    /**
     * {@code for (init; cond; updates) body} (init: declarations, assignments or calls, comma
     * separated) and {@code for (T x in collection) body} (P4-16 1.2.4).
     */
    private Stmt forStmt() {
        SourcePos pos = expect("for").pos();
        expect("(");
        int save = p;
        if (startsDeclaration()) {
            SourcePos vpos = peek().pos();
            TypeRef type = typeRef();
            if (peek().kind() == Token.Kind.IDENT && peek(1).is("in")) {
                String name = ident();
                expect("in");
                Expr coll = expr();
                if (accept("..")) {
                    coll = new Range(coll.pos, coll, expr());
                }
                expect(")");
                return new ForIn(pos, new VarDecl(vpos, type, name, null, false), coll, statement());
            }
            p = save;
        }
        List<Stmt> init = new ArrayList<>();
        if (!peek().is(";")) {
            do {
                init.add(forClause());
            } while (accept(","));
        }
        expect(";");
        Expr cond = peek().is(";") ? null : expr();
        expect(";");
        List<Stmt> updates = new ArrayList<>();
        if (!peek().is(")")) {
            do {
                updates.add(forClause());
            } while (accept(","));
        }
        expect(")");
        return new For(pos, init, cond, updates, statement());
    }

    /** One clause of a for loop's init or update part: a declaration, an assignment or a call. */
    private Stmt forClause() {
        SourcePos pos = peek().pos();
        if (startsDeclaration()) {
            TypeRef type = typeRef();
            String name = ident();
            Expr init = accept("=") ? expr() : null;
            return new VarDecl(pos, type, name, init, false);
        }
        return assignmentOrCall(pos);
    }

    /** A statement starting with a type name followed by an identifier (or type arguments) declares something. */
    private boolean startsDeclaration() {
        Token t = peek();
        if (t.is("bit") || t.is("int") || t.is("bool") || t.is("varbit") || t.is("string") || t.is("tuple")) {
            return true;
        }
        if (t.is("error")) {
            return !peek(1).is(".");
        }
        if (!typeNames.contains(t.text())) {
            return false;
        }
        Token n = peek(1);
        return n.kind() == Token.Kind.IDENT || n.is("<") || (n.is("[") && isStackDecl());
    }

    private boolean isStackDecl() {
        // T[N] name;
        return peek(2).kind() == Token.Kind.INT && peek(3).is("]") && peek(4).kind() == Token.Kind.IDENT;
    }

    private Stmt switchStmt() {
        SourcePos pos = expect("switch").pos();
        expect("(");
        Expr subject = expr();
        expect(")");
        expect("{");
        List<SwitchCase> cases = new ArrayList<>();
        while (!accept("}")) {
            SourcePos cpos = peek().pos();
            Expr value = accept("default") ? null : binary(0);
            String label = value instanceof Name n ? n.name : null;
            expect(":");
            Block body = peek().is("{") ? block() : null;
            cases.add(new SwitchCase(cpos, label, value, body));
        }
        return new Switch(pos, subject, cases);
    }

    // ---------------------------------------------------------------- expressions

    private List<Expr> args() {
        expect("(");
        List<Expr> out = new ArrayList<>();
        if (accept(")")) {
            return out;
        }
        do {
            if (peek().kind() == Token.Kind.IDENT && peek(1).is("=")) {
                SourcePos npos = peek().pos();
                String name = ident();
                next();
                out.add(new NamedArg(npos, name, expr()));
                continue;
            }
            out.add(expr());
        } while (accept(","));
        expect(")");
        return out;
    }

    /**
     * The keys of a const entry or a select case: a parenthesised list of keysets, or one keyset. A single
     * keyset may itself start with {@code (} ({@code (bit<16>) X &&& 0xff00}, {@code ((bit<16>) X) &&& 0xff00}),
     * so the list reading is tried first and kept only when its closing parenthesis is followed by the {@code :}.
     * A list of one keyset and that keyset alone mean the same.
     */
    private List<Expr> keysetList() {
        if (peek().is("(")) {
            int save = p;
            try {
                next();
                List<Expr> keysets = new ArrayList<>();
                do {
                    keysets.add(keysetExpr());
                } while (accept(","));
                expect(")");
                if (peek().is(":")) {
                    return keysets;
                }
            } catch (CompileError notAList) {
                // not a list of keysets: read it again as one keyset below
            }
            p = save;
        }
        return List.of(keysetExpr());
    }

    private Expr keysetExpr() {
        SourcePos pos = peek().pos();
        if (accept("default")) {
            return new DefaultKey(pos);
        }
        if (peek().is("_") ) {
            next();
            return new DontCare(pos);
        }
        Expr e = expr();
        if (accept("&&&")) {
            return new Mask(pos, e, expr());
        }
        if (accept("..")) {
            return new Range(pos, e, expr());
        }
        return e;
    }

    public Expr expr() {
        Expr c = binary(0);
        if (peek().is("?")) {
            SourcePos pos = next().pos();
            Expr a = expr();
            expect(":");
            Expr b = expr();
            return new Conditional(pos, c, a, b);
        }
        return c;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"|"}, {"^"}, {"&"}, {"<<", ">>"},
        {"++", "+", "-", "|+|", "|-|"}, {"*", "/", "%"}
    };

    private Expr binary(int level) {
        if (level == LEVELS.length) {
            return unary();
        }
        Expr left = binary(level + 1);
        while (true) {
            String op = binaryOpAt(level);
            if (op == null) {
                return left;
            }
            SourcePos pos = peek().pos();
            p += op.equals(">>") ? 2 : 1;
            Expr right = binary(level + 1);
            left = new Binary(pos, op, left, right);
        }
    }

    private String binaryOpAt(int level) {
        Token t = peek();
        if (t.kind() != Token.Kind.PUNCT) {
            return null;
        }
        for (String op : LEVELS[level]) {
            if (op.equals(">>")) {
                if (t.is(">") && t.adjacentNext() && peek(1).is(">")) {
                    return ">>";
                }
            } else if (op.equals(">") && t.is(">") && t.adjacentNext() && peek(1).is(">")) {
                return null; // a shift, handled at its own level
            } else if (t.is(op)) {
                return op;
            }
        }
        return null;
    }

    private Expr unary() {
        Token t = peek();
        SourcePos pos = t.pos();
        if (t.is("!") || t.is("~") || t.is("-") || t.is("+")) {
            next();
            return new Unary(pos, t.text(), unary());
        }
        if (t.is("(") && isCast()) {
            next();
            TypeRef type = typeRef();
            expect(")");
            return new Cast(pos, type, unary());
        }
        return postfix(primary());
    }

    private boolean isCast() {
        Token n = peek(1);
        if (n.is("bit") || n.is("int") || n.is("bool")) {
            return true;
        }
        return n.kind() == Token.Kind.IDENT && typeNames.contains(n.text()) && !n.is("error") && peek(2).is(")");
    }

    private Expr postfix(Expr e) {
        while (true) {
            Token t = peek();
            if (t.is(".")) {
                next();
                SourcePos mpos = peek().pos();
                e = new Member(mpos, e, ident());
            } else if (t.is("[")) {
                next();
                Expr a = expr();
                if (accept(":")) {
                    Expr b = expr();
                    expect("]");
                    e = new Slice(t.pos(), e, a, b);
                } else {
                    expect("]");
                    e = new Index(t.pos(), e, a);
                }
            } else if (t.is("(")) {
                e = new Call(t.pos(), e, List.of(), args());
            } else if (t.is("<") && isTypeArgCall(e)) {
                next();
                List<TypeRef> targs = new ArrayList<>();
                do {
                    targs.add(typeRef());
                } while (accept(","));
                expect(">");
                e = new Call(t.pos(), e, targs, args());
            } else {
                return e;
            }
        }
    }

    /** {@code f<T>(...)} / {@code pkt.lookahead<T>()}: '<' followed by a type and then '>' '('. */
    private boolean isTypeArgCall(Expr callee) {
        if (!(callee instanceof Name || callee instanceof Member)) {
            return false;
        }
        Token a = peek(1);
        if (!(a.is("bit") || a.is("int") || a.is("bool") || (a.kind() == Token.Kind.IDENT && typeNames.contains(a.text())))) {
            return false;
        }
        int depth = 0;
        for (int k = 0; k < 32; k++) {
            Token x = peek(k);
            if (x.is("<")) {
                depth++;
            } else if (x.is(">")) {
                if (--depth == 0) {
                    return peek(k + 1).is("(");
                }
            } else if (x.is(";") || x.is("{") || x.kind() == Token.Kind.EOF) {
                return false;
            }
        }
        return false;
    }

    private Expr primary() {
        Token t = next();
        SourcePos pos = t.pos();
        switch (t.kind()) {
            case INT:
                return intLiteral(t);
            case STRING:
                return new StringLit(pos, t.text());
            case IDENT:
                switch (t.text()) {
                    case "true":
                        return new BoolLit(pos, true);
                    case "false":
                        return new BoolLit(pos, false);
                    case "this":
                        throw CompileError.unsupported(pos, "'this'");
                    case "_":
                        return new DontCare(pos);
                    default:
                        return new Name(pos, t.text());
                }
            case PUNCT:
                if (t.is("(")) {
                    Expr e = expr();
                    expect(")");
                    return e;
                }
                if (t.is("{")) {
                    return initializer(pos);
                }
                if (t.is(".")) {
                    throw CompileError.unsupported(pos, "top-level name reference '.name'");
                }
                throw new CompileError(pos, "expected an expression but found " + t);
            default:
                throw new CompileError(pos, "expected an expression but found " + t);
        }
    }

    /** After '{': a list {@code {a, b}}, a struct value {@code {f = a, g = b}} or the invalid header {@code {#}}. */
    private Expr initializer(SourcePos pos) {
        if (peek().is("#") && peek(1).is("}")) {
            next();
            next();
            return new InvalidHeader(pos);
        }
        if (peek().kind() == Token.Kind.IDENT && peek(1).is("=")) {
            List<String> names = new ArrayList<>();
            List<Expr> values = new ArrayList<>();
            do {
                if (peek().is("}")) {
                    break; // trailing comma
                }
                names.add(ident());
                expect("=");
                values.add(expr());
            } while (accept(","));
            expect("}");
            return new StructInit(pos, names, values);
        }
        List<Expr> elems = new ArrayList<>();
        if (!accept("}")) {
            do {
                if (peek().is("}")) {
                    break; // trailing comma
                }
                elems.add(expr());
            } while (accept(","));
            expect("}");
        }
        return new ListExpr(pos, elems);
    }

    /** Parses P4 integer literals: [width(w|s)] [0x|0o|0b|0d] digits, with '_' separators. */
    static IntLit intLiteral(Token t) {
        String s = t.text().replace("_", "");
        int width = -1;
        boolean signed = false;
        int ws = -1;
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c == 'w' || c == 's') {
                ws = k;
                break;
            }
            if (!Character.isDigit(c)) {
                break;
            }
        }
        if (ws > 0) {
            width = Integer.parseInt(s.substring(0, ws));
            signed = s.charAt(ws) == 's';
            s = s.substring(ws + 1);
        }
        int radix = 10;
        String lower = s.toLowerCase();
        if (lower.startsWith("0x")) {
            radix = 16;
            s = s.substring(2);
        } else if (lower.startsWith("0o")) {
            radix = 8;
            s = s.substring(2);
        } else if (lower.startsWith("0b")) {
            radix = 2;
            s = s.substring(2);
        } else if (lower.startsWith("0d")) {
            s = s.substring(2);
        }
        try {
            BigInteger v = new BigInteger(s, radix);
            if (width == 0) {
                throw new CompileError(t.pos(), "integer literal width must be positive: " + t.text());
            }
            return new IntLit(t.pos(), v, width, signed);
        } catch (NumberFormatException e) {
            throw new CompileError(t.pos(), "malformed integer literal " + t.text());
        }
    }
}
