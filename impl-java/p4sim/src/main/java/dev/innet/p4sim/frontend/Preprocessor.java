package dev.innet.p4sim.frontend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The subset of the C preprocessor P4 programs use: {@code #include} (the p4sim prelude for
 * {@code core.p4} and {@code v1model.p4} in either form, else files relative to the includer and the
 * include path), object-like and function-like {@code #define} (with {@code #} and {@code ##},
 * {@code ...}/{@code __VA_ARGS__}), {@code #undef}, {@code #ifdef}/{@code #ifndef}/{@code #if}/
 * {@code #elif} with C integer expressions, {@code #else}, {@code #endif}. Other directives are a
 * compile error, never ignored.
 */
public final class Preprocessor {
    /** Prelude files shipped as resources: written for p4sim from the P4-16 and v1model specifications. */
    private static final Set<String> PRELUDE = Set.of("core.p4", "v1model.p4");

    private final List<Path> includePath;
    private final Map<String, Macro> macros = new HashMap<>();
    private final List<Token> out = new ArrayList<>();
    /** Tokens of the lines since the last directive: a macro call's arguments may span lines. */
    private final List<Token> pending = new ArrayList<>();

    /** A macro: {@code params} is null for an object-like macro; a variadic one ends in {@code __VA_ARGS__}. */
    private record Macro(String name, List<String> params, boolean variadic, List<Token> body) {
        boolean functionLike() {
            return params != null;
        }
    }
    /** Each file's lines by the name its positions use (coverage reports quote them). */
    private final Map<String, List<String>> sources = new HashMap<>();
    private int includeDepth;

    public Preprocessor(List<Path> includePath) {
        this.includePath = includePath;
    }

    /** Preprocesses and tokenises a program file; the result ends with an EOF token. */
    public List<Token> run(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new CompileError(new SourcePos(file.toString(), 0, 0), "cannot read program: " + e.getMessage());
        }
        processFile(file.toString(), file.toAbsolutePath().getParent(), text);
        out.add(new Token(Token.Kind.EOF, "", new SourcePos(file.toString(), lastLine(text), 1), false));
        return out;
    }

    /** Preprocesses source text given directly (tests); includes resolve against {@code dir}. */
    public List<Token> runText(String name, Path dir, String text) {
        processFile(name, dir, text);
        out.add(new Token(Token.Kind.EOF, "", new SourcePos(name, lastLine(text), 1), false));
        return out;
    }

    /** The lines of every file read so far, by the file name in their tokens' positions. */
    public Map<String, List<String>> sources() {
        return Map.copyOf(sources);
    }

    private static int lastLine(String text) {
        return (int) text.lines().count() + 1;
    }

    private void processFile(String name, Path dir, String text) {
        if (++includeDepth > 32) {
            throw new CompileError(new SourcePos(name, 1, 1), "#include nested too deeply (include cycle?)");
        }
        String[] lines = text.split("\r?\n", -1);
        sources.putIfAbsent(name, List.of(lines));
        boolean[] inComment = {false};
        Deque<boolean[]> conds = new ArrayDeque<>(); // each: {active, anyBranchTaken, parentActive}
        for (int ln = 0; ln < lines.length; ln++) {
            int lineNo = ln + 1;
            String line = lines[ln];
            while (line.endsWith("\\") && ln + 1 < lines.length) {
                line = line.substring(0, line.length() - 1) + " " + lines[++ln];
            }
            boolean active = conds.isEmpty() || conds.peek()[0];
            String trimmed = line.strip();
            if (!inComment[0] && trimmed.startsWith("#")) {
                flush();
                directive(name, dir, lineNo, line, trimmed.substring(1).strip(), conds, active);
                continue;
            }
            List<Token> toks = new Lexer(name, line, lineNo).lex(inComment);
            if (active) {
                pending.addAll(toks);
            }
        }
        flush();
        if (!conds.isEmpty()) {
            throw new CompileError(new SourcePos(name, lines.length, 1), "unterminated #if/#ifdef/#ifndef");
        }
        includeDepth--;
    }

    private void flush() {
        if (!pending.isEmpty()) {
            out.addAll(expandList(pending));
            pending.clear();
        }
    }

    /** A token on its way through macro expansion, with the macros it must not expand again (C's hide set). */
    private record HTok(Token t, Set<String> hide) { }

    private List<Token> expandList(List<Token> in) {
        List<HTok> tagged = new ArrayList<>(in.size());
        for (Token t : in) {
            tagged.add(new HTok(t, Set.of()));
        }
        List<Token> result = new ArrayList<>();
        for (HTok h : expand(tagged)) {
            result.add(h.t());
        }
        return result;
    }

    /**
     * Macro expansion as C does it: a macro's replacement is pushed back in front of the remaining
     * input and rescanned with them (so an object-like macro may expand to a function-like macro's
     * name whose arguments follow in the source); every token carries the set of macros whose
     * expansion produced it, which it does not expand again. Arguments are expanded before they are
     * substituted, except next to {@code #} and {@code ##}. Tokens a macro's body contributes take
     * the position of the macro's use (the outermost use for nested expansions); argument tokens keep
     * their own.
     */
    private List<HTok> expand(List<HTok> in) {
        ArrayDeque<HTok> input = new ArrayDeque<>(in);
        List<HTok> result = new ArrayList<>();
        while (!input.isEmpty()) {
            HTok h = input.poll();
            Token t = h.t();
            Macro m = t.kind() == Token.Kind.IDENT ? macros.get(t.text()) : null;
            if (m == null || h.hide().contains(m.name())) {
                result.add(h);
                continue;
            }
            Set<String> hide = new HashSet<>(h.hide());
            hide.add(m.name());
            List<HTok> replacement = new ArrayList<>();
            if (!m.functionLike()) {
                for (Token b : m.body()) {
                    replacement.add(new HTok(new Token(b.kind(), b.text(), t.pos(), b.adjacentNext()), hide));
                }
            } else {
                if (input.isEmpty() || !input.peek().t().is("(")) {
                    result.add(h); // a function-like macro's name without arguments is an ordinary identifier
                    continue;
                }
                input.poll();
                List<List<HTok>> args = collectArgs(input, m, t.pos());
                for (HTok r : substitute(m, args, t.pos())) {
                    Set<String> rh = new HashSet<>(r.hide());
                    rh.addAll(hide);
                    replacement.add(new HTok(r.t(), rh));
                }
            }
            for (int k = replacement.size() - 1; k >= 0; k--) {
                input.addFirst(replacement.get(k));
            }
        }
        return result;
    }

    /** Takes a macro call's arguments from {@code input}, which starts after its '(', up to the closing ')'. */
    private static List<List<HTok>> collectArgs(ArrayDeque<HTok> input, Macro m, SourcePos callPos) {
        List<List<HTok>> args = new ArrayList<>();
        List<HTok> current = new ArrayList<>();
        int depth = 0;
        while (true) {
            if (input.isEmpty()) {
                throw new CompileError(callPos, "unterminated call of macro " + m.name());
            }
            HTok a = input.poll();
            if (a.t().is("(")) {
                depth++;
            } else if (a.t().is(")")) {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (a.t().is(",") && depth == 0 && !(m.variadic() && args.size() == m.params().size() - 1)) {
                args.add(current);
                current = new ArrayList<>();
                continue;
            }
            current.add(a);
        }
        args.add(current);
        if (m.params().isEmpty() && args.size() == 1 && args.get(0).isEmpty()) {
            args.clear();
        }
        if (m.variadic() && args.size() == m.params().size() - 1) {
            args.add(new ArrayList<>()); // no variadic arguments
        }
        if (args.size() != m.params().size()) {
            throw new CompileError(callPos, "macro " + m.name() + " takes " + m.params().size()
                    + " argument(s), got " + args.size());
        }
        return args;
    }

    /** The body with parameters replaced: by the argument expanded, or unexpanded next to # and ##. */
    private List<HTok> substitute(Macro m, List<List<HTok>> args, SourcePos pos) {
        List<Token> body = m.body();
        List<HTok> result = new ArrayList<>();
        boolean pasteNext = false;
        for (int k = 0; k < body.size(); k++) {
            Token b = body.get(k);
            if (isPaste(body, k)) {
                pasteNext = true;
                k++; // the second '#'
                continue;
            }
            int param = b.kind() == Token.Kind.IDENT ? m.params().indexOf(b.text()) : -1;
            if (b.is("#") && k + 1 < body.size() && body.get(k + 1).kind() == Token.Kind.IDENT
                    && m.params().contains(body.get(k + 1).text())) {
                List<HTok> raw = args.get(m.params().indexOf(body.get(k + 1).text()));
                result.add(new HTok(new Token(Token.Kind.STRING, spell(raw), pos, b.adjacentNext()), Set.of()));
                k++;
                continue;
            }
            List<HTok> piece;
            if (param >= 0) {
                boolean rawArg = pasteNext || isPaste(body, k + 1);
                piece = rawArg ? args.get(param) : expand(args.get(param));
            } else {
                piece = List.of(new HTok(new Token(b.kind(), b.text(), pos, b.adjacentNext()), Set.of()));
            }
            if (pasteNext && !result.isEmpty() && !piece.isEmpty()) {
                Token left = result.remove(result.size() - 1).t();
                Token right = piece.get(0).t();
                List<Token> pasted = new Lexer(pos.file(), left.text() + right.text(), pos.line()).lex(new boolean[] {false});
                if (pasted.size() != 1) {
                    throw new CompileError(pos, "'##' in macro " + m.name() + " does not form one token: "
                            + left.text() + right.text());
                }
                result.add(new HTok(new Token(pasted.get(0).kind(), pasted.get(0).text(), pos, right.adjacentNext()), Set.of()));
                result.addAll(piece.subList(1, piece.size()));
            } else {
                result.addAll(piece);
            }
            pasteNext = false;
        }
        return result;
    }

    private static boolean isPaste(List<Token> body, int k) {
        return k + 1 < body.size() && body.get(k).is("#") && body.get(k).adjacentNext() && body.get(k + 1).is("#");
    }

    /** The text of an argument for {@code #x}: its tokens separated as in the source. */
    private static String spell(List<HTok> raw) {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < raw.size(); k++) {
            Token r = raw.get(k).t();
            sb.append(r.kind() == Token.Kind.STRING ? "\"" + r.text() + "\"" : r.text());
            if (k + 1 < raw.size() && !r.adjacentNext()) {
                sb.append(' ');
            }
        }
        return sb.toString();
    }

    private void directive(String name, Path dir, int lineNo, String raw, String d,
                           Deque<boolean[]> conds, boolean active) {
        SourcePos pos = new SourcePos(name, lineNo, raw.indexOf('#') + 1);
        String word = d.split("[\\s(<\"]", 2)[0];
        String rest = d.substring(word.length()).strip();
        int comment = rest.indexOf("//");
        if (comment >= 0) {
            rest = rest.substring(0, comment).strip();
        }
        switch (word) {
            case "ifdef", "ifndef" -> {
                boolean defined = macros.containsKey(rest);
                boolean take = word.equals("ifdef") == defined;
                conds.push(new boolean[] {active && take, take, active});
            }
            case "if" -> {
                boolean take = evalCondition(pos, rest);
                conds.push(new boolean[] {active && take, take, active});
            }
            case "elif" -> {
                if (conds.isEmpty()) {
                    throw new CompileError(pos, "#elif without #if");
                }
                boolean[] c = conds.peek();
                boolean take = !c[1] && c[2] && evalCondition(pos, rest);
                c[0] = take;
                c[1] |= take;
            }
            case "else" -> {
                if (conds.isEmpty()) {
                    throw new CompileError(pos, "#else without #if");
                }
                boolean[] c = conds.peek();
                c[0] = c[2] && !c[1];
                c[1] = true;
            }
            case "endif" -> {
                if (conds.isEmpty()) {
                    throw new CompileError(pos, "#endif without #if");
                }
                conds.pop();
            }
            default -> {
                if (!active) {
                    return;
                }
                switch (word) {
                    case "define" -> define(pos, name, lineNo, raw, rest);
                    case "undef" -> macros.remove(rest);
                    case "include" -> include(pos, dir, rest);
                    case "error" -> throw new CompileError(pos, "#error " + rest);
                    case "pragma", "line" -> { }
                    default -> throw CompileError.unsupported(pos, "preprocessor directive #" + word);
                }
            }
        }
    }

    /**
     * {@code #if} expressions as in C: integers, macros (undefined names are 0), {@code defined(X)},
     * {@code ! * / % + - < > <= >= == != && ||} and parentheses.
     */
    private boolean evalCondition(SourcePos pos, String expr) {
        List<Token> toks = new ArrayList<>();
        List<Token> resolved = new ArrayList<>();
        List<Token> raw = new Lexer(pos.file(), expr, pos.line()).lex(new boolean[] {false});
        for (int i = 0; i < raw.size(); i++) {
            Token t = raw.get(i);
            if (t.is("defined")) {
                boolean paren = i + 1 < raw.size() && raw.get(i + 1).is("(");
                int nameAt = paren ? i + 2 : i + 1;
                if (nameAt >= raw.size() || raw.get(nameAt).kind() != Token.Kind.IDENT) {
                    throw new CompileError(pos, "malformed defined() in #if");
                }
                boolean d = macros.containsKey(raw.get(nameAt).text());
                resolved.add(new Token(Token.Kind.INT, d ? "1" : "0", t.pos(), false));
                i = paren ? nameAt + 1 : nameAt;
                continue;
            }
            resolved.add(t);
        }
        for (Token t : expandList(resolved)) {
            // C: identifiers left after expansion are 0
            toks.add(t.kind() == Token.Kind.IDENT ? new Token(Token.Kind.INT, "0", t.pos(), false) : t);
        }
        toks.add(new Token(Token.Kind.EOF, "", pos, false));
        CondParser p = new CondParser(toks, pos);
        long v = p.or();
        if (toks.get(p.at).kind() != Token.Kind.EOF) {
            throw CompileError.unsupported(pos, "#if expression '" + expr + "'");
        }
        return v != 0;
    }

    /** Precedence climbing over the integer subset of C's #if grammar. */
    private static final class CondParser {
        private final List<Token> t;
        private final SourcePos pos;
        int at;

        CondParser(List<Token> t, SourcePos pos) {
            this.t = t;
            this.pos = pos;
        }

        private boolean eat(String s) {
            if (t.get(at).is(s)) {
                at++;
                return true;
            }
            return false;
        }

        long or() {
            long v = and();
            while (eat("||")) {
                long r = and();
                v = (v != 0 || r != 0) ? 1 : 0;
            }
            return v;
        }

        long and() {
            long v = eq();
            while (eat("&&")) {
                long r = eq();
                v = (v != 0 && r != 0) ? 1 : 0;
            }
            return v;
        }

        long eq() {
            long v = rel();
            while (true) {
                if (eat("==")) {
                    v = v == rel() ? 1 : 0;
                } else if (eat("!=")) {
                    v = v != rel() ? 1 : 0;
                } else {
                    return v;
                }
            }
        }

        long rel() {
            long v = add();
            while (true) {
                if (eat("<=")) {
                    v = v <= add() ? 1 : 0;
                } else if (eat(">=")) {
                    v = v >= add() ? 1 : 0;
                } else if (eat("<")) {
                    v = v < add() ? 1 : 0;
                } else if (eat(">")) {
                    v = v > add() ? 1 : 0;
                } else {
                    return v;
                }
            }
        }

        long add() {
            long v = mul();
            while (true) {
                if (eat("+")) {
                    v += mul();
                } else if (eat("-")) {
                    v -= mul();
                } else {
                    return v;
                }
            }
        }

        long mul() {
            long v = unary();
            while (true) {
                if (eat("*")) {
                    v *= unary();
                } else if (eat("/") || eat("%")) {
                    boolean div = t.get(at - 1).is("/");
                    long r = unary();
                    if (r == 0) {
                        throw new CompileError(pos, "division by zero in #if");
                    }
                    v = div ? v / r : v % r;
                } else {
                    return v;
                }
            }
        }

        long unary() {
            if (eat("!")) {
                return unary() == 0 ? 1 : 0;
            }
            if (eat("-")) {
                return -unary();
            }
            if (eat("(")) {
                long v = or();
                if (!eat(")")) {
                    throw new CompileError(pos, "missing ')' in #if expression");
                }
                return v;
            }
            Token k = t.get(at);
            if (k.kind() != Token.Kind.INT) {
                throw CompileError.unsupported(pos, "#if operand " + k);
            }
            at++;
            return Parser.intLiteral(k).value.longValue();
        }
    }

    private void define(SourcePos pos, String name, int lineNo, String raw, String rest) {
        int k = 0;
        while (k < rest.length() && (Character.isLetterOrDigit(rest.charAt(k)) || rest.charAt(k) == '_')) {
            k++;
        }
        if (k == 0) {
            throw new CompileError(pos, "#define without a macro name");
        }
        String macro = rest.substring(0, k);
        List<String> params = null;
        boolean variadic = false;
        if (k < rest.length() && rest.charAt(k) == '(') {
            // function-like: '(' right after the name, as in C
            int close = rest.indexOf(')', k);
            if (close < 0) {
                throw new CompileError(pos, "missing ')' in the parameters of macro " + macro);
            }
            params = new ArrayList<>();
            String list = rest.substring(k + 1, close).strip();
            if (!list.isEmpty()) {
                for (String param : list.split(",")) {
                    String pname = param.strip();
                    if (pname.equals("...")) {
                        pname = "__VA_ARGS__";
                        variadic = true;
                    } else if (!pname.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                        throw new CompileError(pos, "bad parameter '" + pname + "' of macro " + macro);
                    }
                    params.add(pname);
                }
            }
            k = close + 1;
        }
        String body = rest.substring(k);
        int col = raw.indexOf(body.isEmpty() ? macro : body);
        // lex the body with its real column so errors inside it still point somewhere sensible
        String padded = " ".repeat(Math.max(0, col)) + body;
        List<Token> toks = new Lexer(name, padded, lineNo).lex(new boolean[] {false});
        macros.put(macro, new Macro(macro, params == null ? null : List.copyOf(params), variadic, toks));
    }

    private void include(SourcePos pos, Path dir, String spec) {
        if (spec.length() < 2 || !((spec.startsWith("<") && spec.endsWith(">"))
                || (spec.startsWith("\"") && spec.endsWith("\"")))) {
            throw new CompileError(pos, "malformed #include " + spec);
        }
        String target = spec.substring(1, spec.length() - 1);
        boolean system = spec.startsWith("<");
        if (system && PRELUDE.contains(target)) {
            processFile(target, null, readPrelude(target));
            return;
        }
        List<Path> candidates = new ArrayList<>();
        if (!system && dir != null) {
            candidates.add(dir.resolve(target));
        }
        for (Path p : includePath) {
            candidates.add(p.resolve(target));
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                try {
                    processFile(c.toString(), c.toAbsolutePath().getParent(), Files.readString(c));
                    return;
                } catch (IOException e) {
                    throw new CompileError(pos, "cannot read " + c + ": " + e.getMessage());
                }
            }
        }
        if (PRELUDE.contains(target)) {
            // "core.p4"/"v1model.p4" with no such file beside the program: p4c finds its own in the system path
            processFile(target, null, readPrelude(target));
            return;
        }
        throw new CompileError(pos, "#include file not found: " + target);
    }

    static String readPrelude(String name) {
        try (InputStream in = Preprocessor.class.getResourceAsStream("/dev/innet/p4sim/prelude/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing prelude resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
