package dev.innet.costmodel;

/** One stop of an operation's route: station index in its network and the mean service time there. */
public record Visit(int station, double seconds) {
    public Visit {
        if (station < 0 || !(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("a visit needs a station index >= 0 and a finite time >= 0: " + seconds);
        }
    }
}
