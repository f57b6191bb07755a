package dev.innet.visibility;

import dev.innet.sim.NodeContext;
import java.util.HashMap;
import java.util.Map;

/** A node's timers with what each is for: schedule an action, run it when its timer fires. */
public final class TimerActions {
    private final Map<Long, Runnable> pending = new HashMap<>();
    private final NodeContext ctx;

    public TimerActions(NodeContext ctx) {
        this.ctx = ctx;
    }

    public long after(long delayNanos, Runnable action) {
        long id = ctx.timers().schedule(delayNanos);
        pending.put(id, action);
        return id;
    }

    public void cancel(long id) {
        if (pending.remove(id) != null) {
            ctx.timers().cancel(id);
        }
    }

    /** Runs the action of a fired timer; false if the timer is not one of these. */
    public boolean fire(long id) {
        Runnable action = pending.remove(id);
        if (action == null) {
            return false;
        }
        action.run();
        return true;
    }
}
