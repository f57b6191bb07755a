package dev.innet.p4sim.frontend;

import java.util.HashMap;
import java.util.Map;

/** A lexical scope: names to declarations (AST nodes) or, for type names, {@link Type}s. */
final class Scope {
    private final Scope parent;
    private final Map<String, Object> names = new HashMap<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    Object lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Object o = s.names.get(name);
            if (o != null) {
                return o;
            }
        }
        return null;
    }

    Object lookupLocal(String name) {
        return names.get(name);
    }

    void declare(SourcePos pos, String name, Object what) {
        if (names.containsKey(name)) {
            throw new CompileError(pos, "duplicate declaration of '" + name + "'");
        }
        names.put(name, what);
    }

    /** For declarations P4 allows to be repeated and merged (error, match_kind). */
    void put(String name, Object what) {
        names.put(name, what);
    }
}
