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

    /** {@code f[key]} of a function-valued variable of {@code state}, for a model value named {@code key}. */
    public static Object at(SpecStep state, String var, String key) {
        return ((TlaFunction) state.var(var)).apply(new ModelValue(key));
    }
}
