package dev.innet.sim.device;

import java.util.Objects;

/** One frame a switch emits on {@code egressPort}. The frame array is handed over to the simulator. */
public record SwitchOutput(int egressPort, byte[] frame) {
    public SwitchOutput {
        Objects.requireNonNull(frame, "frame");
        if (egressPort < 0) {
            throw new IllegalArgumentException("egress port must be >= 0: " + egressPort);
        }
    }
}
