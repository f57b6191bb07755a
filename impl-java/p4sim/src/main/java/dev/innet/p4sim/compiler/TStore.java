package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;
import java.lang.invoke.MethodHandles;

/** Template for {@link Specializer#storeStatic}. */
final class TStore implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SLOT = (Integer) D[0];
    private static final long MASK = (Long) D[1];
    private static final LExpr VALUE = (LExpr) D[2];

    TStore() { }

    @Override
    public void run(Frame f) {
        f.s[SLOT] = VALUE.eval(f) & MASK;
    }
}
