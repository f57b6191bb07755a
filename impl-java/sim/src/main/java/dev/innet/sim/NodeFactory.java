package dev.innet.sim;

/**
 * Builds a fresh node object for a host: at first start and at every restart after a crash. A factory
 * must not hand state from one incarnation to the next; only the {@link DurableStore} carries over.
 */
@FunctionalInterface
public interface NodeFactory {
    Node create();
}
