package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import java.lang.invoke.MethodHandles;

/** Template for {@link Specializer#block}: never used directly, only as bytes for hidden classes. */
final class TBlock implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Exec C0 = (Exec) D[0];
    private static final Exec C1 = (Exec) D[1];
    private static final Exec C2 = (Exec) D[2];
    private static final Exec C3 = (Exec) D[3];
    private static final Exec C4 = (Exec) D[4];
    private static final Exec C5 = (Exec) D[5];
    private static final Exec C6 = (Exec) D[6];
    private static final Exec C7 = (Exec) D[7];
    private static final int N = (Integer) D[8];

    TBlock() { }

    @Override
    public void run(Frame f) {
        C0.run(f);
        if (f.flow != Frame.NORMAL) {
            return;
        }
        C1.run(f);
        if (N == 2 || f.flow != Frame.NORMAL) {
            return;
        }
        C2.run(f);
        if (N == 3 || f.flow != Frame.NORMAL) {
            return;
        }
        C3.run(f);
        if (N == 4 || f.flow != Frame.NORMAL) {
            return;
        }
        C4.run(f);
        if (N == 5 || f.flow != Frame.NORMAL) {
            return;
        }
        C5.run(f);
        if (N == 6 || f.flow != Frame.NORMAL) {
            return;
        }
        C6.run(f);
        if (N == 7 || f.flow != Frame.NORMAL) {
            return;
        }
        C7.run(f);
    }
}
