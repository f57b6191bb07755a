package dev.innet.protocol.spec;

import java.util.Map;

/**
 * One state of a spec behaviour: the action that led to it (the spec's {@code act} record: its
 * {@code a} field names the action, the other fields are its parameters) and the values of the spec's
 * variables. Values are plain Java: {@link Long}, {@link Boolean}, {@link String} (a TLA+ string),
 * {@link ModelValue}, {@code Map<String, Object>} (a record, field order kept), {@link TlaFunction},
 * {@code List<Object>} (a sequence) and {@code Set<Object>} (a set).
 */
public record SpecStep(Map<String, Object> action, Map<String, Object> vars) {
    /** The action's name ({@code act.a}). */
    public String actionName() {
        return (String) action.get("a");
    }

    /** A parameter of the action. */
    public Object param(String name) {
        if (!action.containsKey(name)) {
            throw new IllegalArgumentException("action " + actionName() + " has no parameter '" + name + "'");
        }
        return action.get(name);
    }

    public Object var(String name) {
        if (!vars.containsKey(name)) {
            throw new IllegalArgumentException("the spec state has no variable '" + name + "'");
        }
        return vars.get(name);
    }

    /** A TLA+ model value (an uninterpreted constant such as a client or key name). */
    public record ModelValue(String name) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A TLA+ function: its key/value pairs in TLC's order (keys are values as above). */
    public record TlaFunction(Map<Object, Object> mapping) {
        public Object apply(Object key) {
            if (!mapping.containsKey(key)) {
                throw new IllegalArgumentException(key + " is not in the function's domain " + mapping.keySet());
            }
            return mapping.get(key);
        }

        @Override
        public String toString() {
            return mapping.toString();
        }
    }
}
