package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.Frame;
import java.lang.invoke.MethodHandles;

/**
 * Template for {@link Specializer#parserState}: a parser state's statements and transition as constants,
 * so the parser's loop makes one call per state and the state's code is inlined behind it.
 */
final class TState implements ParserCompiler.Step {
    private static final Object[] D;

    static {
        try {
            D = MethodHandles.classData(MethodHandles.lookup(), "_", Object[].class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final Exec BODY = (Exec) D[0];
    private static final ParserCompiler.Next NEXT = (ParserCompiler.Next) D[1];

    TState() { }

    @Override
    public int step(Frame f) {
        BODY.run(f);
        if (f.flow != Frame.NORMAL) {
            return 0; // the parser loop stops at the signal, whatever the value
        }
        return NEXT.next(f);
    }
}
