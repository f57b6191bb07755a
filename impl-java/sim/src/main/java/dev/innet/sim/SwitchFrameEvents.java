package dev.innet.sim;

import dev.innet.sim.simulated.Simulation;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which trace event, if any, stands for a frame a rack's switch processed or sent: {@link
 * Simulation#SWITCH_IN_EVENT} (client, reqId, op) for an innet message from a client host, {@link
 * Simulation#SWITCH_OUT_EVENT} for one to a client host; or, for protocols whose messages are not innet's
 * (LaKe's memcached datagrams), {@link Simulation#SWITCH_UDP_IN_EVENT}/{@link Simulation#SWITCH_UDP_OUT_EVENT}
 * for every UDP frame between rack hosts. Trace validation places the spec's client steps at these events
 * (docs/conformance.md, "Trace validation").
 *
 * <p>One decoder for both places that record them, so that their lines cannot drift apart: the simulated
 * rack (rack's SwitchFrameTrace, at simulated time) and p4sim on live ports ({@code --trace-frames}, at the
 * machine's monotonic clock). Pure: frames in, events out; the caller stamps and writes them.
 */
public final class SwitchFrameEvents {
    private static final int IP_ID_OFFSET = 18;

    private final Set<Integer> clients;
    private final boolean udpFrames;

    /**
     * @param clients   the rack's client hosts: only their messages stand for spec steps
     * @param udpFrames describe every UDP frame between rack hosts instead (Protocol.tracesSwitchUdpFrames)
     */
    public SwitchFrameEvents(List<Integer> clients, boolean udpFrames) {
        this.clients = Set.copyOf(clients);
        this.udpFrames = udpFrames;
    }

    /** The event of a frame the switch took in, if it stands for one. */
    public Optional<TraceEvent> received(byte[] frame) {
        return udpFrames ? udp(Simulation.SWITCH_UDP_IN_EVENT, frame) : innet(Simulation.SWITCH_IN_EVENT, frame, true);
    }

    /** The event of a frame the switch sent out while processing one, if it stands for one. */
    public Optional<TraceEvent> sent(byte[] frame) {
        return udpFrames ? udp(Simulation.SWITCH_UDP_OUT_EVENT, frame) : innet(Simulation.SWITCH_OUT_EVENT, frame, false);
    }

    private Optional<TraceEvent> innet(String event, byte[] frame, boolean fromClient) {
        InnetPacket p;
        int host;
        try {
            p = InnetPacket.decode(frame);
            host = RackAddressing.hostOfIp(fromClient ? p.frame().srcIp() : p.frame().dstIp());
        } catch (WireException | RuntimeException e) {
            return Optional.empty(); // not an innet message of a rack host: nothing a spec step stands for
        }
        if (!clients.contains(host)) {
            return Optional.empty();
        }
        return Optional.of(TraceEvent.of(event).with("client", host).with("reqId", p.message().reqId())
                .with("op", p.message().op()));
    }

    private static Optional<TraceEvent> udp(String event, byte[] frame) {
        UdpFrame udp;
        int src;
        int dst;
        try {
            udp = UdpFrame.decode(frame);
            src = RackAddressing.hostOfIp(udp.srcIp());
            dst = RackAddressing.hostOfIp(udp.dstIp());
        } catch (WireException | RuntimeException e) {
            return Optional.empty(); // not a UDP frame
        }
        if (src < 0 || dst < 0) {
            return Optional.empty(); // not between rack hosts
        }
        int ipId = (frame[IP_ID_OFFSET] & 0xff) << 8 | (frame[IP_ID_OFFSET + 1] & 0xff);
        return Optional.of(TraceEvent.of(event).with("src", src).with("dst", dst).with("ipId", ipId)
                .with("payload", HexFormat.of().formatHex(udp.payload())));
    }
}
