package dev.innet.costmodel;

/**
 * A place where an operation waits and is served: a server's CPU and disk, a link, a switch pipeline, a
 * client machine. {@code servers} identical servers take jobs first-come first-served; {@code servers ==
 * INFINITE} is a pure delay (propagation, a stack traversal: no queueing).
 */
public record Station(String name, int servers, Service service) {
    public static final int INFINITE = Integer.MAX_VALUE;

    /** How long one visit's service takes around the visit's mean. */
    public enum Service {
        /** exactly the mean: pipelines, serialisation on a link */
        DETERMINISTIC,
        /** exponentially distributed around the mean: a server's request handling, whose time varies */
        EXPONENTIAL
    }

    public Station {
        if (name == null || name.isBlank() || servers < 1 || service == null) {
            throw new IllegalArgumentException("a station needs a name, 1+ servers and a service distribution");
        }
    }

    public static Station fifo(String name, Service service) {
        return new Station(name, 1, service);
    }

    public static Station delay(String name) {
        return new Station(name, INFINITE, Service.DETERMINISTIC);
    }

    public boolean isDelay() {
        return servers == INFINITE;
    }
}
