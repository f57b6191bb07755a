package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.FieldPacker;
import dev.innet.p4sim.runtime.Frame;
import dev.innet.p4sim.runtime.HeaderCodec;
import java.lang.invoke.MethodHandles;

/**
 * Template for {@link Specializer#extractNext}: {@code packet.extract(stack.next)} for a header stack at a
 * fixed slot (its first slot holds nextIndex, the elements follow).
 */
final class TExtractNext implements Exec {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int STACK = (Integer) D[0];
    private static final HeaderCodec CODEC = (HeaderCodec) D[1];
    private static final FieldPacker PACKER = (FieldPacker) D[2];
    private static final int BITS = (Integer) D[3];
    private static final int TOO_SHORT = (Integer) D[4];
    private static final int ELEM = (Integer) D[5];
    private static final int SIZE = (Integer) D[6];
    private static final int OUT_OF_BOUNDS = (Integer) D[7];

    TExtractNext() { }

    @Override
    public void run(Frame f) {
        long[] s = f.s;
        long next = s[STACK];
        if (next >= SIZE) {
            f.parserError = OUT_OF_BOUNDS;
            f.flow = Frame.REJECT;
            return;
        }
        int at = f.cursorBits;
        if (at + BITS > f.inLen * 8) {
            f.parserError = TOO_SHORT;
            f.flow = Frame.REJECT;
            return;
        }
        int slot = STACK + 1 + (int) next * ELEM;
        if ((at & 7) == 0) {
            PACKER.unpack(f.in, at >>> 3, s, slot);
            s[slot] = 1;
        } else {
            CODEC.extract(f.in, at, s, slot);
        }
        f.cursorBits = at + BITS;
        s[STACK] = next + 1;
    }
}
