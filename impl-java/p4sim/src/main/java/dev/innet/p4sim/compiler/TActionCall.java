package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import java.lang.invoke.MethodHandles;

/**
 * Template for {@link Specializer#actionCall}: copy-in, body, copy-out. Copy-out happens even when
 * the body exits (P4-16: out and inout arguments are still written back).
 */
final class TActionCall implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Exec IN = (Exec) D[0];
    private static final Exec BODY = (Exec) D[1];
    private static final Exec OUT = (Exec) D[2];

    TActionCall() { }

    @Override
    public void run(Frame f) {
        IN.run(f);
        BODY.run(f);
        int flow = f.flow;
        if (flow == Frame.RETURN) {
            flow = Frame.NORMAL;
        }
        f.flow = Frame.NORMAL;
        OUT.run(f);
        f.flow = flow;
    }
}
