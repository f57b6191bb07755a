package dev.innet.protocol.spec;

import dev.innet.protocol.spec.SpecStep.TlaFunction;
import java.util.LinkedHashMap;
import java.util.Map;

/** Projections of spec variables onto what an implementation can show, shared by the protocols' replays. */
public final class ReplayProjections {
    private ReplayProjections() {}

    /**
     * A spec's {@code pend} (client -> its outstanding operation, a record whose {@code t} is
     * {@code "none"} while idle) as client -> whether it has an operation outstanding: all a client
     * library shows of it.
     */
    public static TlaFunction busy(Object pend) {
        Map<Object, Object> busy = new LinkedHashMap<>();
        for (var e : ((TlaFunction) pend).mapping().entrySet()) {
            busy.put(e.getKey(), !"none".equals(TlaValues.asRecord(e.getValue()).get("t")));
        }
        return new TlaFunction(busy);
    }
}
