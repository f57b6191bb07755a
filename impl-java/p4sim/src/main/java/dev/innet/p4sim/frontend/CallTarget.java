package dev.innet.p4sim.frontend;

/** What a checked {@link Ast.Call} invokes; set by the type checker in {@code Call.target}. */
public sealed interface CallTarget {
    /** {@code h.isValid()}, {@code h.setValid()}, {@code h.setInvalid()}. */
    record HeaderMethod(String method) implements CallTarget { }

    /** {@code s.push_front(n)}, {@code s.pop_front(n)}. */
    record StackMethod(String method) implements CallTarget { }

    /** A method of an extern object (or of {@code packet_in}/{@code packet_out}). */
    record ExternMethod(Ast.ExternDecl extern, Ast.Method method) implements CallTarget { }

    record ExternFunction(Ast.ExternDecl extern) implements CallTarget { }

    record ActionCall(Ast.ActionDecl action) implements CallTarget { }

    record FunctionCall(Ast.FunctionDecl function) implements CallTarget { }

    record TableApply(Ast.TableDecl table) implements CallTarget { }

    /** {@code inst.apply(pkt, args)} of a parser instantiated inside another parser. */
    record ParserApply(Ast.ParserDecl parser) implements CallTarget { }

    /**
     * {@code inst.apply(args)} of a control instantiated inside another control; {@code control} is null
     * when {@code inst} is a control-typed constructor parameter (the instance is bound per block instance).
     */
    record ControlApply(Ast.ControlDecl control) implements CallTarget { }
}
