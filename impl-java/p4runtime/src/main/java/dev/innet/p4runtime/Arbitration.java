package dev.innet.p4runtime;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * P4Runtime's client arbitration for one device and the default role: each stream announces an election
 * id; the stream with the highest id is the primary (master). Two open streams may not share an id.
 * Pure bookkeeping (no gRPC), so the rules are tested on their own: {@code S} is the stream handle.
 */
final class Arbitration<S> {
    private final Map<S, BigInteger> elections = new LinkedHashMap<>();

    /** Records {@code stream}'s (new) election id; returns an error message, or empty when accepted. */
    synchronized Optional<String> announce(S stream, BigInteger electionId) {
        for (Map.Entry<S, BigInteger> e : elections.entrySet()) {
            if (e.getKey() != stream && e.getValue().equals(electionId)) {
                return Optional.of("election id " + electionId + " is already used by another client");
            }
        }
        elections.put(stream, electionId);
        return Optional.empty();
    }

    synchronized void leave(S stream) {
        elections.remove(stream);
    }

    synchronized boolean knows(S stream) {
        return elections.containsKey(stream);
    }

    /** The highest election id of any open stream (zero when none). */
    synchronized BigInteger highest() {
        return elections.values().stream().max(BigInteger::compareTo).orElse(BigInteger.ZERO);
    }

    synchronized Optional<S> primary() {
        return elections.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }

    synchronized boolean isPrimary(S stream) {
        return primary().map(p -> p == stream).orElse(false);
    }

    /** Does a Write (or pipeline change) carrying {@code electionId} come from the primary? */
    synchronized boolean isPrimaryElection(BigInteger electionId) {
        return !elections.isEmpty() && highest().equals(electionId);
    }

    synchronized List<S> streams() {
        return new ArrayList<>(elections.keySet());
    }
}
