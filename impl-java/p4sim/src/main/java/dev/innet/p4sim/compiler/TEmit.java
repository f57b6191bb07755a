package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.FieldPacker;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.HeaderCodec;
import java.lang.invoke.MethodHandles;

/**
 * Template for {@link Specializer#emitHeader}: {@code packet.emit} of one header at a fixed slot. The
 * header's packer is a constant here, so its straight-line code is inlined into the deparser.
 */
final class TEmit implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SLOT = (Integer) D[0];
    private static final int BYTES = (Integer) D[1];
    private static final FieldPacker PACKER = (FieldPacker) D[2];

    TEmit() { }

    @Override
    public void run(Frame f) {
        long[] s = f.s;
        if (s[SLOT] != 0) {
            f.ensureOut(BYTES);
            PACKER.pack(s, SLOT, f.out, f.outLen);
            f.outLen += BYTES;
        }
    }
}
