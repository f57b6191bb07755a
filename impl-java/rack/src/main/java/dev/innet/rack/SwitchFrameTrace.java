package dev.innet.rack;

import dev.innet.sim.SwitchFrameEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.device.SwitchOutput;
import dev.innet.sim.simulated.Simulation;
import java.util.List;

/**
 * When the switch processed each message of a client host: a {@link Simulation#SWITCH_IN_EVENT} event (client,
 * reqId, op) for a frame from a client, a {@link Simulation#SWITCH_OUT_EVENT} for each frame it sent to a client, recorded by the
 * environment (host 0) at the moment of processing. Trace validation places the spec's client steps there:
 * the spec folds the switch's processing of a request into the client's step, and with faulty client links
 * (variable delay, reordering, loss) the client's send time does not say when, or whether, that happened
 * (docs/conformance.md). Only kept when the rack records trace events. Which frames make which events is
 * {@link SwitchFrameEvents}, shared with p4sim's {@code --trace-frames} on a live rack.
 */
final class SwitchFrameTrace {
    private final Simulation sim;
    private final SwitchFrameEvents events;
    private final String switchName;

    /**
     * @param udpFrames  record every UDP frame instead (Protocol.tracesSwitchUdpFrames: LaKe's memcached datagrams)
     * @param switchName the switch's name, written as field {@code switch} of every event, or null (a one-switch
     *                   rack: the field is left out, so its traces stay as they were)
     */
    SwitchFrameTrace(Simulation sim, List<Integer> clients, boolean udpFrames, String switchName) {
        this.sim = sim;
        this.events = new SwitchFrameEvents(clients, udpFrames);
        this.switchName = switchName;
    }

    void processed(byte[] frame, List<SwitchOutput> out) {
        // with UDP frames, every frame of the step, including those of servers: a host's reply is where LaKe fills its layers
        events.received(frame).ifPresent(this::record);
        for (SwitchOutput o : out) {
            events.sent(o.frame()).ifPresent(this::record);
        }
    }

    private void record(TraceEvent e) {
        // several switches (DistCache's leaf-spine network): which one processed the frame
        sim.traceEnvironment(switchName == null ? e : e.with("switch", switchName));
    }
}
