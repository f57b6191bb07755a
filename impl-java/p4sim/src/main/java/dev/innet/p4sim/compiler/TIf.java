package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.LExpr;
import java.lang.invoke.MethodHandles;

/** Template for {@link Specializer#ifElse}. */
final class TIf implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final LExpr COND = (LExpr) D[0];
    private static final Exec THEN = (Exec) D[1];
    private static final Exec ELSE = (Exec) D[2];

    TIf() { }

    @Override
    public void run(Frame f) {
        long c = COND.eval(f);
        if (f.flow != Frame.NORMAL) {
            return; // the condition applied a table whose action exited
        }
        if (c != 0) {
            THEN.run(f);
        } else {
            ELSE.run(f);
        }
    }
}
