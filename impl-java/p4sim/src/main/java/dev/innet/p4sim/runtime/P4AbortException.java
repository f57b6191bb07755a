package dev.innet.p4sim.runtime;

/**
 * A failed {@code assert} or {@code assume}. bmv2 logs "Assert error: COND failed, file F, line L" and
 * calls {@code std::abort()} (bm_sim/core/primitives.cpp): the whole switch process dies. A p4sim switch
 * likewise stops: this packet's processing ends here and every later packet is refused with the same
 * message.
 */
public final class P4AbortException extends RuntimeException {
    public P4AbortException(String message) {
        super(message);
    }
}
