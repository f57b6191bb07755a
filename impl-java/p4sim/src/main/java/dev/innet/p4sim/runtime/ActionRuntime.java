package dev.innet.p4sim.runtime;

/**
 * A compiled action. Its directionless (control-plane) parameters occupy consecutive slots starting
 * at {@link #dataBase}, so installing an entry's arguments is one array copy.
 */
public final class ActionRuntime {
    public final String name;
    public final String[] paramNames;
    public final int[] paramWidths;
    public final int dataBase;
    public final int dataWords;
    public Exec body;

    public ActionRuntime(String name, String[] paramNames, int[] paramWidths, int dataBase) {
        this.name = name;
        this.paramNames = paramNames;
        this.paramWidths = paramWidths;
        this.dataBase = dataBase;
        int w = 0;
        for (int pw : paramWidths) {
            w += Wide.words(pw);
        }
        this.dataWords = w;
    }

    /** Runs the action with control-plane data {@code args} ({@link #dataWords} words). */
    public void invoke(Frame f, long[] args) {
        if (dataWords > 0) {
            System.arraycopy(args, 0, f.s, dataBase, dataWords);
        }
        body.run(f);
        if (f.flow == Frame.RETURN) {
            f.flow = Frame.NORMAL;
        }
    }
}
