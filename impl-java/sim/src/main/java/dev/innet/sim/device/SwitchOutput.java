package dev.innet.sim.device;

import java.util.Objects;

/**
 * One frame a switch emits on {@code egressPort}, {@code delayNanos} after the frame that caused it
 * arrived (the device's own processing time; 0 for a device without a timing model). The frame array
 * is handed over to the simulator.
 */
public record SwitchOutput(int egressPort, byte[] frame, long delayNanos) {
    public SwitchOutput {
        Objects.requireNonNull(frame, "frame");
        if (egressPort < 0) {
            throw new IllegalArgumentException("egress port must be >= 0: " + egressPort);
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("a switch cannot emit before its input arrived: delay " + delayNanos + " ns");
        }
    }

    /** A frame emitted at once (no timing model). */
    public SwitchOutput(int egressPort, byte[] frame) {
        this(egressPort, frame, 0);
    }
}
