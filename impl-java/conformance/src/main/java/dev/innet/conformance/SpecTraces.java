package dev.innet.conformance;

import dev.innet.protocol.spec.SpecStep;
import dev.innet.tracegen.TlaValue;
import dev.innet.tracegen.TlcStateText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Spec behaviours as the replay reads them: TLC's states (parsed by tracegen) turned into
 * {@link SpecStep}s, whose action is the spec's {@code act} history variable and whose values are
 * plain Java (so protocol modules need not depend on the parser).
 */
public final class SpecTraces {
    private SpecTraces() {}

    /** One behaviour from TLC's printed states ({@code -simulate} files, error traces). */
    public static List<SpecStep> fromTlcBehaviour(String text) {
        List<SpecStep> steps = new ArrayList<>();
        for (TlcStateText.State s : TlcStateText.parseBehaviour(text)) {
            steps.add(stepOf(s.vars()));
        }
        return steps;
    }

    /** A trace case (generated or curated) as replay steps. */
    public static List<SpecStep> fromTraceCase(dev.innet.tracegen.TraceCase c) {
        List<SpecStep> steps = new ArrayList<>();
        for (dev.innet.tracegen.TraceCase.TraceState s : c.states()) {
            steps.add(stepOf(s.vars()));
        }
        return steps;
    }

    /** A state given as its variables; its action is the value of {@code act}. */
    public static SpecStep stepOf(List<TlaValue.Field> vars) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (TlaValue.Field f : vars) {
            values.put(f.name(), plain(f.value()));
        }
        Object act = values.get("act");
        if (!(act instanceof Map<?, ?> record) || !(record.get("a") instanceof String)) {
            throw new IllegalArgumentException("the state has no action label: the spec must keep `act = [a |-> \"Name\", ...]`");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> action = (Map<String, Object>) act;
        return new SpecStep(action, values);
    }

    /** A TLA+ value as the plain Java values {@link SpecStep} documents. */
    public static Object plain(TlaValue v) {
        return switch (v) {
            case TlaValue.Int i -> i.value();
            case TlaValue.Bool b -> b.value();
            case TlaValue.Str s -> s.value();
            case TlaValue.ModelValue m -> new SpecStep.ModelValue(m.name());
            case TlaValue.Rec r -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (TlaValue.Field f : r.fields()) {
                    out.put(f.name(), plain(f.value()));
                }
                yield out;
            }
            case TlaValue.Fn f -> {
                Map<Object, Object> out = new LinkedHashMap<>();
                for (TlaValue.Pair p : f.pairs()) {
                    out.put(plain(p.key()), plain(p.value()));
                }
                yield new SpecStep.TlaFunction(out);
            }
            case TlaValue.Seq s -> {
                List<Object> out = new ArrayList<>();
                for (TlaValue e : s.elements()) {
                    out.add(plain(e));
                }
                yield out;
            }
            case TlaValue.TlaSet s -> {
                Set<Object> out = new LinkedHashSet<>();
                for (TlaValue e : s.elements()) {
                    out.add(plain(e));
                }
                yield out;
            }
        };
    }
}
