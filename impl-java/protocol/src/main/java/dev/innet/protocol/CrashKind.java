package dev.innet.protocol;

/**
 * A part of a rack whose crash a protocol recovers from, so that a simulated campaign may crash it
 * ({@link Protocol#recoverableCrashes}; {@code ./innet sim --crashes} schedules them with the rack's
 * {@code CrashPlan}). Each crashed part restarts shortly after, as a fresh incarnation.
 */
public enum CrashKind {
    /** The switch: every table and register lost, restarted and programmed again by the controller. */
    SWITCH,
    /** The controller host (the switch OS), restarted with nothing but what it can read back. */
    CONTROLLER,
    /** One storage server, drawn from the run's seed. */
    ONE_SERVER,
    /**
     * Every storage server, each once at its own time: for protocols whose servers have different roles
     * (the visibility layer's metadata node and data nodes), so that every role's recovery runs in every
     * campaign run rather than in the runs whose seed happens to pick it.
     */
    EVERY_SERVER
}
