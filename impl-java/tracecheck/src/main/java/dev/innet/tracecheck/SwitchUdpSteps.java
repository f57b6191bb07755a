package dev.innet.tracecheck;

import dev.innet.sim.simulated.Simulation;
import java.util.List;

/**
 * A run's record of the switch's UDP frames (protocols whose switch speaks more than the innet header: LaKe,
 * DistCache, Pegasus, visibility) read as switch steps: each frame the switch processed, followed by the
 * frames it sent while processing it. The simulator writes them in that order.
 */
public final class SwitchUdpSteps {
    private SwitchUdpSteps() {}

    /**
     * The {@code switchUdpOut} lines right after line {@code i} of {@code lines}: the frames the switch sent for
     * the frame of line {@code i}. The caller skips them (its index moves on by the list's size).
     */
    public static List<TraceLine> sentFor(List<TraceLine> lines, int i) {
        int end = i + 1;
        while (end < lines.size() && lines.get(end).event().equals(Simulation.SWITCH_UDP_OUT_EVENT)) {
            end++;
        }
        return List.copyOf(lines.subList(i + 1, end));
    }

    /** A {@code switchUdpOut} line that no processed frame precedes: the record is out of order or cut. */
    public static TraceFormatException sentWithoutInput(TraceLine line) {
        return new TraceFormatException("line " + line.line() + ": a frame the switch sent without a frame it processed before it");
    }
}
