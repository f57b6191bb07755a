package dev.innet.p4sim.runtime;

/** A compiled statement. It may set {@link Frame#flow} to stop the enclosing block. */
@FunctionalInterface
public interface Exec {
    void run(Frame f);
}
