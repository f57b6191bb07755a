package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Ast.*;
import dev.innet.p4sim.frontend.CallTarget;
import dev.innet.p4sim.frontend.CheckedProgram;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which branches of a program are register guards (coverage reports them apart): a branch whose
 * condition reads a value that came from a register, or one whose outcomes contain a register write.
 *
 * "Came from a register" is a data-flow approximation over the whole program (the parsers apart),
 * insensitive to order and control flow: a place is register-derived if some {@code r.read(place, i)} writes it, or some
 * assignment (or initialised local) gives it a value computed from a register-derived place or a
 * register read. Places are named by their path ({@code meta.seq_bound}, {@code hdr.innet.seq}; the
 * same path in every control, since v1model hands all controls the same headers and metadata), locals
 * and the parameters of actions and functions by their declaration; arguments of direct calls flow
 * into their parameters. Not followed: implicit flows (an assignment under a register guard), values
 * copied back through {@code out}/{@code inout} parameters, and values passed in function calls
 * inside expressions. ({@code ?:} is not a branch point.)
 * "Contains a register write" looks through direct action and function calls, applied tables (any of
 * their actions) and applied control instances.
 */
final class RegisterGuards {
    /**
     * Register-derived places, by path: those of the controls, and apart from them those of the
     * parsers, which start every pass on freshly extracted headers (a header field a control fills
     * from a register is not register-derived when the parser reads the next packet's).
     */
    private final Set<String> controlDerived = new HashSet<>();
    private final Set<String> parserDerived = new HashSet<>();
    /** The one of the two sets the methods below use. */
    private Set<String> derived = controlDerived;
    private final Map<Object, Integer> localIds = new IdentityHashMap<>();
    /** Parameters of actions and functions (named by declaration; control and parser parameters by name). */
    private final Map<Param, Boolean> callParams = new IdentityHashMap<>();
    private final Map<Object, Boolean> writes = new IdentityHashMap<>();
    /** Actions a table may run: the control's own actions by name, then global ones. */
    private final Map<TableDecl, List<ActionDecl>> tableActions = new IdentityHashMap<>();

    private record Flow(String target, Expr value) { }

    RegisterGuards(CheckedProgram prog) {
        List<Flow> flows = new ArrayList<>();
        List<Flow> parserFlows = new ArrayList<>();
        Map<String, ActionDecl> global = new HashMap<>();
        for (ActionDecl a : prog.globalActions()) {
            global.put(a.name, a);
        }
        for (Decl d : prog.ast().decls()) {
            switch (d) {
                case ActionDecl a -> a.params.forEach(p -> callParams.put(p, true));
                case FunctionDecl fn when !fn.typeParams.isEmpty() -> { } // unchecked: its specialisations count
                case FunctionDecl fn -> fn.params.forEach(p -> callParams.put(p, true));
                case ControlDecl cd -> cd.locals.forEach(n -> {
                    if (n instanceof ActionDecl a) {
                        a.params.forEach(p -> callParams.put(p, true));
                    }
                });
                default -> { }
            }
        }
        // specialisations of generic functions (the generic declarations themselves are unchecked)
        List<FunctionDecl> specs = prog.functions().stream().filter(f -> !f.typeBindings.isEmpty()).toList();
        specs.forEach(spec -> spec.params.forEach(p -> callParams.put(p, true)));
        specs.forEach(spec -> collect(spec.body, flows));
        for (Decl d : prog.ast().decls()) {
            switch (d) {
                case ActionDecl a -> collect(a.body, flows);
                case FunctionDecl fn when !fn.typeParams.isEmpty() -> { }
                case FunctionDecl fn -> collect(fn.body, flows);
                case ParserDecl pd -> {
                    derived = parserDerived;
                    pd.locals.forEach(s -> collect(s, parserFlows));
                    pd.states.forEach(st -> st.stmts.forEach(s -> collect(s, parserFlows)));
                    derived = controlDerived;
                }
                case ControlDecl cd -> {
                    Map<String, ActionDecl> local = new HashMap<>();
                    for (Node n : cd.locals) {
                        if (n instanceof ActionDecl a) {
                            local.put(a.name, a);
                            collect(a.body, flows);
                        } else if (n instanceof VarDecl v) {
                            collect(v, flows);
                        }
                    }
                    for (Node n : cd.locals) {
                        if (n instanceof TableDecl t) {
                            List<ActionDecl> as = new ArrayList<>();
                            for (ActionRef r : t.actions) {
                                ActionDecl a = local.getOrDefault(r.name(), global.get(r.name()));
                                if (a != null) {
                                    as.add(a);
                                }
                            }
                            tableActions.put(t, as);
                        }
                    }
                    collect(cd.apply, flows);
                }
                default -> { }
            }
        }
        propagate(flows, controlDerived);
        propagate(parserFlows, parserDerived);
    }

    /** To a fixed point: each round adds places, and there are finitely many. */
    private void propagate(List<Flow> flows, Set<String> into) {
        derived = into;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Flow fl : flows) {
                if (!derived.contains(fl.target()) && readsRegister(fl.value())) {
                    derived.add(fl.target());
                    changed = true;
                }
            }
        }
        derived = controlDerived;
    }

    /** Whether an {@code if} (in a parser state or elsewhere) is a register guard. */
    boolean ifGuard(If i, boolean inParser) {
        derived = inParser ? parserDerived : controlDerived;
        boolean guard = readsRegister(i.cond) || writesRegister(i.then) || writesRegister(i.otherwise);
        derived = controlDerived;
        return guard;
    }

    /** Whether a {@code switch} is a register guard: its subject reads one, or a case body writes one. */
    boolean switchGuard(Switch sw) {
        if (!(sw.subject.type instanceof dev.innet.p4sim.frontend.Type.ApplyResult) && readsRegister(sw.subject)) {
            return true;
        }
        for (SwitchCase c : sw.cases) {
            if (c.body() != null && writesRegister(c.body())) {
                return true;
            }
        }
        return false;
    }

    /** Whether a parser {@code select} is a register guard: one of its keys reads a register-derived value. */
    boolean selectGuard(State st) {
        derived = parserDerived;
        boolean guard = st.selectOn.stream().anyMatch(this::readsRegister);
        derived = controlDerived;
        return guard;
    }

    // ---------------------------------------------------------------- data flow

    private void collect(Stmt s, List<Flow> flows) {
        switch (s) {
            case Block b -> b.stmts.forEach(x -> collect(x, flows));
            case If i -> {
                collect(i.then, flows);
                if (i.otherwise != null) {
                    collect(i.otherwise, flows);
                }
            }
            case Switch sw -> sw.cases.forEach(c -> {
                if (c.body() != null) {
                    collect(c.body(), flows);
                }
            });
            case For fl -> {
                fl.init.forEach(x -> collect(x, flows));
                collect(fl.body, flows);
                fl.updates.forEach(x -> collect(x, flows));
            }
            case ForIn fl -> collect(fl.body, flows);
            case Assign a -> {
                String t = path(a.lhs);
                if (t != null) {
                    flows.add(new Flow(t, a.rhs));
                }
            }
            case VarDecl v -> {
                if (v.init != null) {
                    flows.add(new Flow(local(v, v.name), v.init));
                }
            }
            case CallStmt c -> {
                if (isRegister(c.call, "read") && c.call.args.size() == 2) {
                    String t = path(c.call.args.get(0));
                    if (t != null) {
                        derived.add(t);
                    }
                }
                List<Param> params = switch (c.call.target) {
                    case CallTarget.ActionCall ac -> ac.action().params;
                    case CallTarget.FunctionCall fc -> fc.function().params;
                    default -> List.of();
                };
                // arguments flow into in, inout and directionless parameters
                for (int i = 0; i < params.size() && i < c.call.args.size(); i++) {
                    if (params.get(i).dir != Direction.OUT) {
                        flows.add(new Flow(local(params.get(i), params.get(i).name), c.call.args.get(i)));
                    }
                }
            }
            default -> { }
        }
    }

    /** Whether evaluating {@code e} reads a register or a register-derived place. */
    boolean readsRegister(Expr e) {
        if (e == null) {
            return false;
        }
        String p = path(e);
        if (p != null) {
            // a field is read, not the struct around it: only index expressions along the path read more
            return overlapsDerived(p) || indexReads(e);
        }
        return switch (e) {
            case Member m -> readsRegister(m.target);
            case Index i -> readsRegister(i.target) || readsRegister(i.index);
            case Slice s -> readsRegister(s.target);
            case Unary u -> readsRegister(u.operand);
            case Binary b -> readsRegister(b.left) || readsRegister(b.right);
            case Conditional c -> readsRegister(c.cond) || readsRegister(c.then) || readsRegister(c.otherwise);
            case Cast c -> readsRegister(c.operand);
            case ListExpr l -> l.elements.stream().anyMatch(this::readsRegister);
            case Call c -> isRegister(c, "read") || readsRegister(c.callee) || c.args.stream().anyMatch(this::readsRegister);
            default -> false;
        };
    }

    /** Whether an index expression inside the place expression {@code e} reads a register. */
    private boolean indexReads(Expr e) {
        return switch (e) {
            case Member m -> indexReads(m.target);
            case Index i -> readsRegister(i.index) || indexReads(i.target);
            case Slice s -> indexReads(s.target);
            default -> false;
        };
    }

    /** A place and a derived one overlap when one is the other or contains it ({@code meta} and {@code meta.x}). */
    private boolean overlapsDerived(String p) {
        for (String d : derived) {
            if (d.equals(p) || d.startsWith(p + ".") || d.startsWith(p + "[") || p.startsWith(d + ".")
                    || p.startsWith(d + "[")) {
                return true;
            }
        }
        return false;
    }

    /** The path of a place expression, or null if it is not one. */
    private String path(Expr e) {
        return switch (e) {
            case Name n -> n.decl instanceof VarDecl || callParams.containsKey(n.decl) ? local(n.decl, n.name) : n.name;
            case Member m -> {
                String t = path(m.target);
                yield t == null ? null : t + "." + m.member;
            }
            case Index i -> {
                String t = path(i.target);
                yield t == null ? null : t + "[]";
            }
            case Slice s -> path(s.target);
            default -> null;
        };
    }

    /** Locals and action/function parameters are distinct places even where their names repeat. */
    private String local(Object decl, String name) {
        return "local#" + localIds.computeIfAbsent(decl, x -> localIds.size()) + ":" + name;
    }

    private static boolean isRegister(Call c, String method) {
        return c.target instanceof CallTarget.ExternMethod em && em.extern().name.equals("register")
                && em.method().name.equals(method);
    }

    // ---------------------------------------------------------------- writes

    boolean writesRegister(Stmt s) {
        if (s == null) {
            return false;
        }
        return switch (s) {
            case Block b -> b.stmts.stream().anyMatch(this::writesRegister);
            case If i -> writesRegister(i.then) || writesRegister(i.otherwise);
            case Switch sw -> sw.cases.stream().anyMatch(c -> c.body() != null && writesRegister(c.body()));
            case CallStmt c -> callWrites(c.call);
            case For fl -> writesRegister(fl.body) || fl.init.stream().anyMatch(this::writesRegister)
                    || fl.updates.stream().anyMatch(this::writesRegister);
            case ForIn fl -> writesRegister(fl.body);
            default -> false;
        };
    }

    private boolean callWrites(Call c) {
        return switch ((CallTarget) c.target) {
            case CallTarget.ExternMethod em -> isRegister(c, "write");
            case CallTarget.ActionCall ac -> memo(ac.action(), () -> writesRegister(ac.action().body));
            case CallTarget.FunctionCall fc -> memo(fc.function(), () -> writesRegister(fc.function().body));
            case CallTarget.TableApply ta -> memo(ta.table(), () -> tableActions.getOrDefault(ta.table(), List.of())
                    .stream().anyMatch(a -> writesRegister(a.body)));
            // a control-typed constructor parameter (no control known here): assume it may write
            case CallTarget.ControlApply ca when ca.control() == null -> true;
            case CallTarget.ControlApply ca -> memo(ca.control(), () -> writesRegister(ca.control().apply)
                    || ca.control().locals.stream().anyMatch(n -> n instanceof ActionDecl a && writesRegister(a.body)));
            default -> false;
        };
    }

    private boolean memo(Object decl, java.util.function.BooleanSupplier compute) {
        Boolean known = writes.get(decl);
        if (known == null) {
            known = compute.getAsBoolean();
            writes.put(decl, known);
        }
        return known;
    }
}
