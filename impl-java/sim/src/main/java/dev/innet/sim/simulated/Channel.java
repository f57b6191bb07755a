package dev.innet.sim.simulated;

import dev.innet.sim.RandomSource;

/**
 * One direction of one link, e.g. {@code h3>tor:3} (host 3 towards switch {@code tor} port 3) or
 * {@code tor:3>h3}. It carries the fault policy for frames going that way and its own random stream,
 * so traffic on one link never shifts the random draws of another.
 */
public final class Channel {
    private final Simulation simulation;
    private final String name;
    final Endpoint from;
    final Endpoint to;
    final RandomSource random;
    LinkFaults faults;
    /** Number of active partitions that cut this channel; frames are lost while it is above zero. */
    int cuts;
    /** How many cuts ever began on this channel: a frame in flight when one begins is lost with it. */
    long cutsBegun;
    /** Frames on the wire now, bounded like a real port buffer. */
    int inFlight;
    /**
     * For a switch's egress: the time its last frame left. A switch that takes longer over one frame
     * than over the next does not let the next overtake it on the same port (an in-order pipeline).
     */
    long lastDeparture;

    Channel(Simulation simulation, String name, Endpoint from, Endpoint to, RandomSource random, LinkFaults faults) {
        this.simulation = simulation;
        this.name = name;
        this.from = from;
        this.to = to;
        this.random = random;
        this.faults = faults;
    }

    public String name() {
        return name;
    }

    public LinkFaults faults() {
        return faults;
    }

    /** Changes the fault policy from now on (frames already in flight keep the delay they drew). Logged. */
    public void setFaults(LinkFaults newFaults) {
        simulation.changeFaults(this, newFaults);
    }

    public boolean isCut() {
        return cuts > 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
