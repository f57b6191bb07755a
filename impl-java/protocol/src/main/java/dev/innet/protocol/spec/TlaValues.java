package dev.innet.protocol.spec;

import dev.innet.protocol.spec.SpecStep.ModelValue;
import dev.innet.protocol.spec.SpecStep.TlaFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reading the plain Java values of a {@link SpecStep} (see its documentation for the encoding). */
public final class TlaValues {
    private TlaValues() {}

    public static long asLong(Object o) {
        return ((Number) o).longValue();
    }

    /** The name of a model value (a client, a key). */
    public static String name(Object modelValue) {
        return ((ModelValue) modelValue).name();
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> asRecord(Object o) {
        return (Map<String, Object>) o;
    }

    /** The names of a function's domain of model values, sorted (a spec's clients or keys). */
    public static List<String> domainNames(Object function) {
        List<String> names = new ArrayList<>();
        for (Object k : ((TlaFunction) function).mapping().keySet()) {
            names.add(name(k));
        }
        names.sort(null);
        return names;
    }

    /**
     * A function with an integer domain as TLC prints it: a sequence when the domain is 1..n, otherwise a
     * function (the replays compare values as the trace reader gives them).
     */
    public static Object intFunction(java.util.SortedMap<Long, Object> f) {
        long expected = 1;
        for (long k : f.keySet()) {
            if (k != expected++) {
                return new TlaFunction(new java.util.LinkedHashMap<>(f));
            }
        }
        return new ArrayList<>(f.values());
    }

    /** The integer domain of a spec function value, sorted (a sequence's is 1..n). */
    public static List<Long> intDomain(Object f) {
        List<Long> out = new ArrayList<>();
        if (f instanceof List<?> seq) {
            for (long i = 1; i <= seq.size(); i++) {
                out.add(i);
            }
        } else {
            for (Object k : ((TlaFunction) f).mapping().keySet()) {
                out.add(asLong(k));
            }
            out.sort(null);
        }
        return out;
    }

    /** {@code f[key]} of a function with an integer domain (a sequence or a function). */
    public static Object atInt(Object f, long key) {
        if (f instanceof List<?> seq) {
            return seq.get((int) key - 1);
        }
        return ((TlaFunction) f).apply(key);
    }

    /** {@code f[key]} of a function-valued variable of {@code state}, for a model value named {@code key}. */
    public static Object at(SpecStep state, String var, String key) {
        return ((TlaFunction) state.var(var)).apply(new ModelValue(key));
    }
}
