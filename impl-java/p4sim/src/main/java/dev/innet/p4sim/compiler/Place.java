package dev.innet.p4sim.compiler;

import dev.innet.p4sim.frontend.Type;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;

/**
 * Where a value lives in the frame: a compile-time slot plus, for header stack elements indexed at
 * run time, a run-time offset. Most places are fully static, which the compiled code exploits.
 */
record Place(int base, LExpr dyn, Type type) {
    int slot(Frame f) {
        return dyn == null ? base : base + (int) dyn.eval(f);
    }

    boolean isStatic() {
        return dyn == null;
    }

    Place field(String name) {
        Type ft = Layout.fields(type).stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow().type();
        return new Place(base + Layout.fieldOffset(type, name), dyn, ft);
    }

    Place withOffset(int extra, LExpr moreDyn, Type t) {
        LExpr d;
        if (moreDyn == null) {
            d = dyn;
        } else if (dyn == null) {
            d = moreDyn;
        } else {
            LExpr a = dyn;
            d = f -> a.eval(f) + moreDyn.eval(f);
        }
        return new Place(base + extra, d, t);
    }
}
