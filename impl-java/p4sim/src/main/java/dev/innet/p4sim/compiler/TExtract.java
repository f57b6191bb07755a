package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.FieldPacker;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.HeaderCodec;
import java.lang.invoke.MethodHandles;

/** Template for {@link Specializer#extractHeader}: {@code packet.extract} into a header at a fixed slot. */
final class TExtract implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int SLOT = (Integer) D[0];
    private static final HeaderCodec CODEC = (HeaderCodec) D[1];
    private static final FieldPacker PACKER = (FieldPacker) D[2];
    private static final int BITS = (Integer) D[3];
    private static final int TOO_SHORT = (Integer) D[4];

    TExtract() { }

    @Override
    public void run(Frame f) {
        int at = f.cursorBits;
        if (at + BITS > f.inLen * 8) {
            f.parserError = TOO_SHORT;
            f.flow = Frame.REJECT;
            return;
        }
        if ((at & 7) == 0) {
            PACKER.unpack(f.in, at >>> 3, f.s, SLOT);
            f.s[SLOT] = 1;
        } else {
            CODEC.extract(f.in, at, f.s, SLOT);
        }
        f.cursorBits = at + BITS;
    }
}
