package dev.innet.protocol.spec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The frames a replay holds in flight, each with the spec message it is and where it is going. The
 * spec's network is a set of messages; a replay's is the frames its nodes and the switch emitted and
 * it has not delivered yet. A spec action names a message; {@link #take} finds the frame that is it.
 *
 * @param <R> where a frame is going, in the protocol's terms (an enum of the replay's routes)
 */
public final class ReplayNetwork<R> {
    /** A frame in flight and the spec message it is. */
    public record Flight<R>(Map<String, Object> message, R route, byte[] frame) {}

    private final List<Flight<R>> flights = new ArrayList<>();

    /**
     * Puts a frame in flight. The spec's network is a set: a second frame that is the same spec message
     * as one already on the same route (a server answering a duplicated request twice) is that message,
     * so one frame per message is kept: the newest, as if the network had lost the older copy (which it
     * may). The newest is the one a waiting procedure expects (an acknowledgement carries its request id).
     */
    public void put(Map<String, Object> message, R route, byte[] frame) {
        flights.removeIf(in -> in.route().equals(route) && in.message().equals(message));
        flights.add(new Flight<>(message, route, frame));
    }

    /** Takes the flight on {@code route} whose message has every field of {@code pattern} (kept when duplicated). */
    public Flight<R> take(String action, R route, Map<String, Object> pattern, boolean duplicate) {
        return take(action, route, new Predicate<>() {
            @Override
            public boolean test(Map<String, Object> m) {
                return matches(m, pattern);
            }

            @Override
            public String toString() {
                return pattern.toString();
            }
        }, duplicate);
    }

    /**
     * Takes the first flight on {@code route} whose message {@code wanted} accepts; with {@code duplicate}
     * it stays in flight (the spec's "deliver a copy and keep it"). A replay failure if there is none.
     */
    public Flight<R> take(String action, R route, Predicate<Map<String, Object>> wanted, boolean duplicate) {
        for (int i = 0; i < flights.size(); i++) {
            Flight<R> f = flights.get(i);
            if (f.route().equals(route) && wanted.test(f.message())) {
                if (!duplicate) {
                    flights.remove(i);
                }
                return f;
            }
        }
        throw new SpecReplay.ReplayException(action + ": no message " + wanted + " is in flight in the implementation; "
                + "in flight: " + messages());
    }

    /** Drops the first flight on any route whose message has every field of {@code pattern} (a loss). */
    public void lose(Map<String, Object> pattern) {
        for (int i = 0; i < flights.size(); i++) {
            if (matches(flights.get(i).message(), pattern)) {
                flights.remove(i);
                return;
            }
        }
        throw new SpecReplay.ReplayException("Lose: no message " + pattern + " is in flight; in flight: " + messages());
    }

    /** Drops every flight {@code lost} accepts (what was on its way to a node that failed); returns how many. */
    public int dropIf(Predicate<Flight<R>> lost) {
        int before = flights.size();
        flights.removeIf(lost);
        return before - flights.size();
    }

    /** Drops every flight (a crash that loses what was inside a node). */
    public void clear() {
        flights.clear();
    }

    /** The spec messages in flight, as the set the spec's network variable is. */
    public Set<Map<String, Object>> messages() {
        Set<Map<String, Object>> out = new LinkedHashSet<>();
        for (Flight<R> f : flights) {
            out.add(f.message());
        }
        return out;
    }

    /** Whether {@code message} has every field of {@code pattern}, with equal values. */
    public static boolean matches(Map<String, Object> message, Map<String, Object> pattern) {
        for (var e : pattern.entrySet()) {
            if (!e.getValue().equals(message.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
