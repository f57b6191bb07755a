package dev.innet.rack;

import dev.innet.sim.TraceEvent;
import dev.innet.sim.device.SwitchOutput;
import dev.innet.sim.simulated.Simulation;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.WireException;
import dev.innet.wire.UdpFrame;
import java.util.HexFormat;
import java.util.List;

/**
 * When the switch processed each message of a client host: a {@link Simulation#SWITCH_IN_EVENT} event (client,
 * reqId, op) for a frame from a client, a {@link Simulation#SWITCH_OUT_EVENT} for each frame it sent to a client, recorded by the
 * environment (host 0) at the moment of processing. Trace validation places the spec's client steps there:
 * the spec folds the switch's processing of a request into the client's step, and with faulty client links
 * (variable delay, reordering, loss) the client's send time does not say when, or whether, that happened
 * (docs/conformance.md). Only kept when the rack records trace events.
 */
final class SwitchFrameTrace {
    private final Simulation sim;
    private final List<Integer> clients;

    private final boolean udpFrames;
    private final String switchName;

    /**
     * @param udpFrames  record every UDP frame instead (Protocol.tracesSwitchUdpFrames: LaKe's memcached datagrams)
     * @param switchName the switch's name, written as field {@code switch} of every UDP frame event, or null (a
     *                   one-switch rack: the field is left out, so its traces stay as they were)
     */
    SwitchFrameTrace(Simulation sim, List<Integer> clients, boolean udpFrames, String switchName) {
        this.sim = sim;
        this.clients = clients;
        this.udpFrames = udpFrames;
        this.switchName = switchName;
    }

    void processed(byte[] frame, List<SwitchOutput> out) {
        if (udpFrames) {
            // every frame of the step, including those of servers: a host's reply is where LaKe fills its layers
            recordUdp(Simulation.SWITCH_UDP_IN_EVENT, frame);
            for (SwitchOutput o : out) {
                recordUdp(Simulation.SWITCH_UDP_OUT_EVENT, o.frame());
            }
            return;
        }
        record(Simulation.SWITCH_IN_EVENT, frame, true);
        for (SwitchOutput o : out) {
            record(Simulation.SWITCH_OUT_EVENT, o.frame(), false);
        }
    }

    private static final int IP_ID_OFFSET = 18;

    private void recordUdp(String event, byte[] frame) {
        UdpFrame udp;
        int src;
        int dst;
        try {
            udp = UdpFrame.decode(frame);
            src = RackAddressing.hostOfIp(udp.srcIp());
            dst = RackAddressing.hostOfIp(udp.dstIp());
        } catch (WireException | RuntimeException e) {
            return; // not a UDP frame
        }
        if (src < 0 || dst < 0) {
            return; // not between rack hosts
        }
        int ipId = (frame[IP_ID_OFFSET] & 0xff) << 8 | (frame[IP_ID_OFFSET + 1] & 0xff);
        TraceEvent e = TraceEvent.of(event);
        if (switchName != null) {
            // several switches (DistCache's leaf-spine network): which one processed the frame
            e = e.with("switch", switchName);
        }
        sim.traceEnvironment(e.with("src", src).with("dst", dst).with("ipId", ipId)
                .with("payload", HexFormat.of().formatHex(udp.payload())));
    }

    private void record(String event, byte[] frame, boolean fromClient) {
        InnetPacket p;
        int host;
        try {
            p = InnetPacket.decode(frame);
            host = RackAddressing.hostOfIp(fromClient ? p.frame().srcIp() : p.frame().dstIp());
        } catch (WireException | RuntimeException e) {
            return; // not an innet message of a rack host: nothing a spec step stands for
        }
        if (!clients.contains(host)) {
            return;
        }
        sim.traceEnvironment(TraceEvent.of(event).with("client", host).with("reqId", p.message().reqId())
                .with("op", p.message().op()));
    }
}
