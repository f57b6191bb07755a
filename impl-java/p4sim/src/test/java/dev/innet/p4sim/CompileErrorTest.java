package dev.innet.p4sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.innet.p4sim.frontend.CompileError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ill-typed programs and unsupported constructs are compile errors naming file:line:col and the problem. */
class CompileErrorTest {
    /** Line 1..: declarations at %DECLS% (line 9), ingress locals at %LOCALS% (line 15), apply body at %BODY% (line 17). */
    private static final String TEMPLATE = """
            #include <core.p4>
            #include <v1model.p4>
            header h_t {
                bit<8>  a;
                bit<16> b;
            }
            struct headers { h_t h; }
            struct metadata { bit<8> m; }
            %DECLS%
            parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
                state start { pkt.extract(hdr.h); transition accept; }
            }
            control VC(inout headers hdr, inout metadata meta) { apply { } }
            control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
                %LOCALS%
                apply {
                    %BODY%
                }
            }
            control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
            control CC(inout headers hdr, inout metadata meta) { apply { } }
            control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
            V1Switch(P(), VC(), I(), E(), CC(), D()) main;
            """;

    private static String program(String decls, String locals, String body) {
        return TEMPLATE.replace("%DECLS%", decls).replace("%LOCALS%", locals).replace("%BODY%", body);
    }

    private static void fails(String expected, String source) {
        CompileError e = assertThrows(CompileError.class, () -> P4Sim.compileText("t.p4", source));
        assertEquals(expected, e.getMessage());
    }

    private static void bodyFails(String expected, String body) {
        fails(expected, program("", "", body));
    }

    @Test
    void theTemplateItselfCompiles() {
        P4Sim.compileText("t.p4", program("", "", ""));
    }

    /**
     * A constant that does not fit its type is not an error for p4c: it warns and keeps the low bits
     * (p4c's IR::Constant::handleOverflow), and so does p4sim; the values themselves are checked by
     * stf/corpusforms3 (gauntlet_various_ops-bmv2's {@code 4 / 1w1}).
     */
    @Test
    void constantsThatDoNotFitAreWarningsAndTruncated() {
        assertEquals(List.of("t.p4:17:20: warning: value 300 does not fit in bit<8>; truncated to 44 as p4c does"),
                P4Sim.compileText("t.p4", program("", "", "bit<8> x = 300;")).checked().warnings());
        assertEquals(List.of("t.p4:17:19: warning: value 300 does not fit in bit<8>; truncated to 44 as p4c does"),
                P4Sim.compileText("t.p4", program("", "", "hdr.h = { 300, 2 };")).checked().warnings());
        assertEquals(List.of("t.p4:17:20: warning: value 9 does not fit in int<4>; truncated to -7 as p4c does"),
                P4Sim.compileText("t.p4", program("", "", "int<4> s = 4s9;")).checked().warnings());
        assertEquals(List.of(), P4Sim.compileText("t.p4", program("", "", "bit<8> x = 255;")).checked().warnings());
    }

    /** log_msg has no effect in p4sim, so a call in its data (whose effects would be skipped) is refused. */
    @Test
    void logMsgData() {
        bodyFails("t.p4:17:17: error: log_msg needs a string, not bit<8>", "log_msg(8w1);");
        fails("t.p4:17:28: error: unsupported construct: a call inside log_msg's arguments (not implemented by p4sim)",
                program("bit<8> f() { return 1; }", "", "log_msg(\"x={}\", { f() });"));
        P4Sim.compileText("t.p4", program("", "", "log_msg(\"a={} valid={}\", { hdr.h.a, hdr.h.isValid() });"));
    }

    @Test
    void undeclaredIdentifier() {
        bodyFails("t.p4:17:9: error: undeclared identifier 'foo'", "foo = 1;");
    }

    @Test
    void typeMismatches() {
        bodyFails("t.p4:17:20: error: type mismatch: expected bit<8> but found bit<16>", "bit<8> x = 16w1;");
        bodyFails("t.p4:17:27: error: operands have different types: bit<8> and bit<16>", "hdr.h.b = hdr.h.a + hdr.h.b;");
        bodyFails("t.p4:17:19: error: expected bool but found bit<8>", "if (hdr.h.a) { }");
        bodyFails("t.p4:17:18: error: cannot cast header h_t to bit<8>", "meta.m = (bit<8>) hdr.h;");
        bodyFails("t.p4:17:25: error: slice [9:0] out of range for bit<8>", "meta.m = hdr.h.a[9:0];");
        bodyFails("t.p4:17:19: error: cannot cast int<8> to bit<16> directly (change width and signedness in two casts)",
                "hdr.h.b = (bit<16>) ((int<8>) hdr.h.a);");
        bodyFails("t.p4:17:15: error: verify can only be called in a parser", "verify(true, error.NoMatch);");
        bodyFails("t.p4:17:27: error: '++' requires bit<N>/int<N> operands with known widths, not bit<8> and int",
                "hdr.h.b = hdr.h.a ++ 1;");
    }

    @Test
    void assignmentsNeedWritableTargets() {
        bodyFails("t.p4:17:29: error: 'x' is not assignable (a constant, an 'in' or directionless parameter, or not a variable)",
                "const bit<8> x = 1; x = 2;");
        fails("t.p4:15:26: error: 'v' is not assignable (a constant, an 'in' or directionless parameter, or not a variable)",
                program("", "action a(bit<8> v) { v = 1; }", ""));
    }

    @Test
    void unsupportedConstructsAreNamed() {
        bodyFails("t.p4:17:9: error: unsupported construct: 'while' statement (P4-16 has none; use for) (not implemented by p4sim)",
                "while (true) { }");
        bodyFails("t.p4:17:30: error: unsupported construct: for-in over header h_t (ranges lo .. hi, lists {a, b} and header stacks are supported) (not implemented by p4sim)",
                "for (bit<8> x in hdr.h) { }");
        bodyFails("t.p4:17:14: error: unsupported construct: for-in over a range with a loop variable of type int<8> (bit<N>, N <= 64, is supported) (not implemented by p4sim)",
                "for (int<8> x in 1 .. 3) { }");
        fails("t.p4:9:14: error: unsupported construct: list type (not implemented by p4sim)",
                program("struct l_t { list<bit<8>> x; }", "", ""));
        // action profiles are implemented (ActionProfileTest); a selector key needs an action_selector
        fails("t.p4:15:45: error: a 'selector' key needs implementation = an action_selector",
                program("", "action_profile(4) ap; table t { key = { hdr.h.a : selector; } actions = { NoAction; } implementation = ap; }", ""));
        // division by a run-time value is accepted (ExternBehaviourTest); by a constant zero it is an error
        bodyFails("t.p4:17:27: error: division by zero", "hdr.h.a = hdr.h.a / 0;");
        // a function parameter without a direction is accepted as 'in' (as p4c does), so writing it is an error
        P4Sim.compileText("t.p4", program("bit<8> f(bit<8> x) { return x; }", "", "hdr.h.a = f(hdr.h.a);"));
        fails("t.p4:9:22: error: 'x' is not assignable (a constant, an 'in' or directionless parameter, or not a variable)",
                program("bit<8> f(bit<8> x) { x = 1; return x; }", "", ""));
        fails("t.p4:9:25: error: function f must return a bit<8>", program("bit<8> f(in bit<8> x) { return; }", "", ""));
        fails("t.p4:9:23: error: exit is not allowed in a function", program("void f(in bit<8> x) { exit; }", "", ""));
        fails("t.p4:9:32: error: undeclared identifier 'f'", program("bit<8> f(in bit<8> x) { return f(x); }", "", ""));
    }

    /** The corpus constructs of p4c's older programs (docs/p4sim.md, "The public corpus"): what they still refuse. */
    @Test
    void olderV1modelFormsRefuseWhatBmv2CannotDo() {
        // bmv2 carries only user metadata into a new pass: a header field in resubmit's data is refused
        bodyFails("t.p4:17:26: error: unsupported construct: preserving hdr.h.a (only fields of the user metadata can be"
                + " carried into a resubmitted, recirculated or cloned packet) (not implemented by p4sim)",
                "resubmit({ hdr.h.a });");
        P4Sim.compileText("t.p4", program("", "", "resubmit({ meta.m }); recirculate({}); clone3(CloneType.I2E, 32w1, meta); mark_to_drop();"));
        // p4c's trailing @priority (bmv2's order) and a P4Runtime priority in one table
        fails("t.p4:15:148: error: unsupported construct: @priority after an entry's action together with 'priority =' or a"
                + " leading @priority in one table (bmv2 and P4Runtime order them oppositely) (not implemented by p4sim)",
                program("", "action a() { } table t { key = { hdr.h.a : ternary; } actions = { a; } const entries = {"
                        + " priority = 5 : 1 &&& 1 : a(); 2 &&& 2 : a() @priority(1); } }", ""));
    }

    /** Controls as constructor arguments (stf/ctlparams.p4): what does not fit the parameter's control type. */
    @Test
    void aControlArgumentMustMatchItsControlType() {
        String decls = "control ct_t(inout bit<8> x); control Use(inout bit<8> x)(ct_t c) { apply { c.apply(x); } }"
                + " control Wide(inout bit<16> y) { apply { } } control Fits(inout bit<8> z) { apply { z = z + 1; } }";
        P4Sim.compileText("t.p4", program(decls, "Fits() f; Use(f) u;", "u.apply(hdr.h.a);"));
        fails("t.p4:15:19: error: control Wide does not have the parameters of ct_t", program(decls, "Wide() w; Use(w) u;", "u.apply(hdr.h.a);"));
        fails("t.p4:15:9: error: the argument for control parameter 'c' must be a control instance declared in the enclosing block", program(decls, "Use(hdr) u;", "u.apply(hdr.h.a);"));
    }

    /** Types, parser constructs and declarations of issue 14 part B: what is still rejected, and how. */
    @Test
    void typesValueSetsAndBlockParameters() {
        fails("t.p4:9:39: error: header stack element must be a header or header_union type, not struct s_t",
                program("struct s_t { bit<8> x; } struct t_t { s_t[2] ss; }", "", ""));
        fails("t.p4:9:20: error: header_union member 'x' must be a header, not bit<8>",
                program("header_union u_t { bit<8> x; }", "", ""));
        fails("t.p4:9:28: error: header v_t has more than one varbit field",
                program("header v_t { varbit<16> x; varbit<8> y; }", "", ""));
        fails("t.p4:9:14: error: varbit field 'x' is only allowed in a header",
                program("struct v_t { varbit<16> x; }", "", ""));
        fails("t.p4:9:21: error: varbit width must be a constant in 1..2048",
                program("header v_t { varbit<0> x; }", "", ""));
        fails("t.p4:11:30: error: header v_t has a varbit field: extract it with a length in bits",
                program("", "", "")
                        .replace("struct headers { h_t h; }", "header v_t { bit<8> l; varbit<16> x; } struct headers { h_t h; v_t v; }")
                        .replace("pkt.extract(hdr.h);", "pkt.extract(hdr.v);"));
        fails("t.p4:11:30: error: extract with a length needs a header with a varbit field, not header h_t",
                program("", "", "").replace("pkt.extract(hdr.h);", "pkt.extract(hdr.h, 32w8);"));
        fails("t.p4:15:5: error: value_set can only be declared in a parser", program("", "value_set<bit<8>>(4) vs;", ""));
        fails("t.p4:11:5: error: unsupported construct: value_set of a value wider than 64 bits (not implemented by p4sim)",
                program("", "", "").replace("state start {", "value_set<bit<128>>(4) vs; state start {"));
        fails("t.p4:11:94: error: value_set vs of bit<16> does not match the select key types [bit<8>]",
                program("", "", "").replace("state start { pkt.extract(hdr.h); transition accept; }",
                        "value_set<bit<16>>(4) vs; state start { pkt.extract(hdr.h); transition select(hdr.h.a) { vs: accept; default: reject; } }"));
        fails("t.p4:15:5: error: control C takes 1 constructor argument(s), got 0",
                program("control C(inout h_t h)(bit<8> k) { apply { h.a = k; } }", "C() c;", ""));
        fails("t.p4:9:24: error: constructor parameter 'k' cannot have a direction",
                program("control C(inout h_t h)(in bit<8> k) { apply { } }", "", ""));
        fails("t.p4:17:30: error: argument for extern parameter 'r' must name an extern instance",
                program("control C(inout h_t h, register<bit<8>> r) { apply { r.write(0, h.a); } }", "C() c;", "c.apply(hdr.h, hdr.h.a);"));
        fails("t.p4:17:44: error: unsupported construct: applying instance c with a different extern for 'r' than before (each instance is bound to one extern per parameter) (not implemented by p4sim)",
                program("register<bit<8>>(2) r1; register<bit<8>>(2) r2; control C(inout h_t h, register<bit<8>> r) { apply { r.write(0, h.a); } }",
                        "C() c;", "c.apply(hdr.h, r1); c.apply(hdr.h, r2);"));
        fails("t.p4:17:19: error: cannot infer type parameter T of f; give a type argument",
                program("T f<T>(in bit<8> x) { return (T) x; }", "", "meta.m = f(hdr.h.a);"));
        fails("t.p4:17:20: error: type mismatch: expected bit<8> but found bit<16>",
                program("T id<T>(in T x) { return x; }", "", "meta.m = id(hdr.h.b);"));
    }

    @Test
    void controlPlaneAnnotations() {
        fails("t.p4:15:5: error: @name takes one string",
                program("", "@name(x) action a() { } table t { key = { } actions = { a; } }", ""));
        fails("t.p4:15:119: error: action a is @defaultonly in table t and cannot be used by entries",
                program("", "action a() { } table t { key = { hdr.h.a : exact; } actions = { @defaultonly a; NoAction; } const entries = { 1 : a(); } }", ""));
        fails("t.p4:15:102: error: action a is @tableonly in table t and cannot be its default",
                program("", "action a() { } table t { key = { hdr.h.a : exact; } actions = { @tableonly a; } default_action = a(); }", ""));
    }

    @Test
    void preprocessorConditions() {
        String decls = """
                #define LEVEL 3
                #if LEVEL >= 2 && defined(LEVEL) && !defined(NOPE) && (V1MODEL_VERSION == 20180101)
                const bit<8> PICKED = 1;
                #elif 1
                const bit<8> PICKED = 3;
                #else
                const bit<8> PICKED = 2;
                #endif
                """;
        P4Sim.compileText("t.p4", program(decls, "", "meta.m = PICKED;"));
        fails("t.p4:10:1: error: #error stop here", program("#if 1 + 1 == 2\n#error stop here\n#endif", "", ""));
        fails("t.p4:12:1: error: #error elif taken", program("#if 0\n#error no\n#elif 2 > 1\n#error elif taken\n#else\n#error no\n#endif", "", ""));
        fails("t.p4:9:1: error: unsupported construct: preprocessor directive #pragmaX (not implemented by p4sim)",
                program("#pragmaX", "", ""));
    }

    @Test
    void functionLikeMacrosAreChecked() {
        fails("t.p4:17:18: error: macro F takes 1 argument(s), got 2",
                program("#define F(x) (x)", "", "meta.m = F(1, 2);"));
        fails("t.p4:17:18: error: unterminated call of macro F",
                program("#define F(x) (x)", "", "meta.m = F(1;"));
        fails("t.p4:9:1: error: bad parameter '1' of macro F", program("#define F(1) x", "", ""));
        fails("t.p4:17:18: error: '##' in macro PASTE does not form one token: a+",
                program("#define PASTE(x, y) x ## y", "", "meta.m = PASTE(a, +);"));
    }

    @Test
    void loopsAndArgumentsAreChecked() {
        bodyFails("t.p4:17:9: error: break outside a for loop", "break;");
        bodyFails("t.p4:17:9: error: continue outside a for loop", "continue;");
        fails("t.p4:17:11: error: positional and named arguments cannot be mixed in a call of action a",
                program("", "action a(bit<8> x, bit<8> y) { meta.m = x + y; }", "a(1, y = 2);"));
        fails("t.p4:17:11: error: action a has no parameter 'z'",
                program("", "action a(bit<8> x, bit<8> y) { meta.m = x + y; }", "a(z = 1, y = 2);"));
        fails("t.p4:17:18: error: argument 'x' given twice",
                program("", "action a(bit<8> x, bit<8> y) { meta.m = x + y; }", "a(x = 1, x = 2);"));
        fails("t.p4:17:10: error: no argument for parameter 'x' of action a (it has no default value)",
                program("", "action a(bit<8> x, bit<8> y = 3) { meta.m = x + y; }", "a(y = 2);"));
        fails("t.p4:15:100: error: action a in the actions of table t needs 1 argument(s) for its directional parameters, got 0",
                program("", "action a(inout bit<8> x, bit<8> v) { x = v; } table t { key = { hdr.h.a : exact; } actions = { a; } }", ""));
        fails("t.p4:15:122: error: 'x' is not assignable (a constant, an 'in' or directionless parameter, or not a variable)",
                program("", "const bit<8> x = 1; action a(inout bit<8> y, bit<8> v) { y = v; } table t { key = { hdr.h.a : exact; } actions = { a(x); } }", ""));
        fails("t.p4:17:10: error: action a expects 2 argument(s), got 0",
                program("", "action a(bit<8> x, bit<8> y = 3) { meta.m = x + y; }", "a();"));
        // '_' only for an out parameter, as p4c's call unification allows: an inout or in one would read it
        fails("t.p4:17:11: error: '_' can only be passed to an out parameter, not to inout parameter 'x'",
                program("", "action a(inout bit<8> x) { x = x + 1; }", "a(_);"));
        fails("t.p4:17:11: error: '_' can only be passed to an out parameter, not to in parameter 'x'",
                program("", "action a(in bit<8> x) { meta.m = x; }", "a(_);"));
        P4Sim.compileText("t.p4", program("", "action a(out bit<8> x) { x = 1; }", "a(_);"));
        fails("t.p4:17:22: error: unsupported construct: compound assignment to a target containing a call (not implemented by p4sim)",
                program("", "", "hdr.s[f()].a += 1;").replace("struct headers { h_t h; }", "struct headers { h_t h; h_t[2] s; }"));
    }

    @Test
    void initialisersAreChecked() {
        bodyFails("t.p4:17:18: error: {#} (the invalid header) needs a header type here, not bit<8>", "meta.m = {#};");
        bodyFails("t.p4:17:17: error: header h_t has 2 field(s) but the initialiser gives 1", "hdr.h = { 1 };");
        bodyFails("t.p4:17:13: error: cannot tell the struct or header type of { f = e } here", "if ({ a = 1 } == { a = 1 }) { }");
        bodyFails("t.p4:17:30: error: header h_t has no field 'z'", "hdr.h = { a = 1, z = 2 };");
        bodyFails("t.p4:17:30: error: field 'a' initialised twice", "hdr.h = { a = 1, a = 2 };");
        bodyFails("t.p4:17:33: error: 'C' is not assignable (a constant, an 'in' or directionless parameter, or not a variable)",
                "const h_t C = { 1, 2 }; C.a = 3;");
        bodyFails("t.p4:17:9: error: initializer of constant 'C' is not a compile-time constant",
                "const h_t C = { hdr.h.a, 2 };");
    }

    @Test
    void syntaxErrors() {
        bodyFails("t.p4:18:5: error: expected ';' but found '}'", "meta.m = 1");
        fails("t.p4:9:1: error: expected a declaration but found 'garbage'", program("garbage", "", ""));
    }

    @Test
    void tablesAreChecked() {
        fails("t.p4:15:23: error: unknown match kind 'fuzzy'",
                program("", "table t { key = { hdr.h.a : fuzzy; } actions = { NoAction; } }", ""));
        fails("t.p4:15:81: error: action a is not in the actions of table t",
                program("", "action a() { } table t { key = { } actions = { NoAction; } default_action = a(); }", ""));
        fails("t.p4:15:54: error: 'nope' is not an action",
                program("", "table t { key = { hdr.h.a : exact; } actions = { nope; } }", ""));
    }

    @Test
    void parserAndArchitectureChecks() {
        fails("t.p4:11:39: error: transition to unknown state 'nowhere'",
                program("", "", "").replace("transition accept; }\n}", "transition nowhere; }\n}"));
        fails("t.p4:23:1: error: V1Switch takes 6 arguments (parser, verifyChecksum, ingress, egress, computeChecksum, deparser)",
                program("", "", "").replace("V1Switch(P(), VC(),", "V1Switch(VC(),"));
        fails("t.p4:1:1: error: #include file not found: nope.p4", "#include \"nope.p4\"\n");
    }

    @Test
    void unalignedHeadersWithAVarbitCannotBeExtracted() {
        // a fixed-width header of 12 bits is padded to 16, as p4c's bmv2 back end does (stf/padding.p4);
        // with a varbit field the padding would move with its length, so that stays refused
        P4Sim.compileText("t.p4", program("", "", "")
                .replace("struct headers { h_t h; }", "header odd_t { bit<12> x; } struct headers { h_t h; odd_t o; }")
                .replace("pkt.extract(hdr.h); transition accept;", "pkt.extract(hdr.h); pkt.extract(hdr.o); transition accept;"));
        fails("t.p4:11:55: error: unsupported construct: header odd_t of 4 bits plus a varbit<16> (headers must be a whole number of bytes) (not implemented by p4sim)",
                program("", "", "")
                        .replace("struct headers { h_t h; }", "header odd_t { bit<4> x; varbit<16> v; } struct headers { h_t h; odd_t o; }")
                        .replace("pkt.extract(hdr.h); transition accept;", "pkt.extract(hdr.h); pkt.extract(hdr.o, 8); transition accept;"));
    }
}
