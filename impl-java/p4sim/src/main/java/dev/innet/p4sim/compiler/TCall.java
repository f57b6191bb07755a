package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import java.lang.invoke.MethodHandles;

/** Template for {@link Specializer#call}. */
final class TCall implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Exec TARGET = (Exec) D[0];

    TCall() { }

    @Override
    public void run(Frame f) {
        TARGET.run(f);
    }
}
