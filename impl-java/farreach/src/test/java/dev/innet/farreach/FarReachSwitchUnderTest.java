package dev.innet.farreach;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.farreach.controller.FarReachControlNames;
import dev.innet.kv.KvOp;
import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.protocol.Forwarding;
import dev.innet.protocol.RackPorts;
import dev.innet.rack.RackRuns;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.InnetPacket;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;
import java.math.BigInteger;
import java.util.List;

/**
 * p4/farreach.p4 on p4sim with one client (host 2), one server (host 1) and the controller's port, for
 * packet-level tests written in Java (loops over value lengths, say) rather than in an STF file. The
 * controller's part (admission, the to-be-evicted flag) is done here with register writes, as in the
 * STF scenarios.
 */
final class FarReachSwitchUnderTest {
    static final int SERVER = 1;
    static final int CLIENT = 2;
    private static final int CLIENT_PORT = 40000;
    private static P4Sim.Program program;

    final P4Switch sw;
    final SwitchControl control;

    FarReachSwitchUnderTest() {
        synchronized (FarReachSwitchUnderTest.class) {
            if (program == null) {
                program = P4Sim.compile(RackRuns.root().resolve("p4/farreach.p4"), List.of(RackRuns.root().resolve("p4")));
            }
        }
        sw = program.instantiate(SwitchConfig.defaults());
        control = sw.control();
        Forwarding.install(control, List.of(SERVER, CLIENT, RackPorts.CONTROLLER_HOST));
    }

    /** Admission as the controller does it (Fig. 4): invalid, record, lookup entry, valid. */
    void admit(byte[] key, int index, byte[] value, long seq, boolean latest) {
        control.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ZERO);
        CacheRegisters.writeValue(control, index, value);
        control.registerWrite(CacheControlNames.RECORD_SEQ, index, BigInteger.valueOf(seq));
        control.registerWrite(FarReachControlNames.RECORD_LATEST, index, latest ? BigInteger.ONE : BigInteger.ZERO);
        if (CacheRegisters.indexOf(control, key) != index) {
            control.addEntry(CacheRegisters.lookupEntry(key, index));
        }
        control.registerWrite(CacheControlNames.RECORD_VALID, index, BigInteger.ONE);
    }

    void setEvicting(int index, boolean evicting) {
        control.registerWrite(FarReachControlNames.RECORD_EVICTING, index, evicting ? BigInteger.ONE : BigInteger.ZERO);
    }

    /** A message the switch emitted, with the port it left on. */
    record Out(int port, InnetMessage message) {}

    /** A client request; returns the one message the switch emits for it (asserting there is exactly one). */
    Out fromClient(int op, long reqId, byte[] key, byte[] value) throws WireException {
        return fromClient(CLIENT, op, reqId, key, value);
    }

    Out fromClient(int client, int op, long reqId, byte[] key, byte[] value) throws WireException {
        InnetMessage msg = InnetMessage.of(op, reqId, key, 0, value);
        UdpFrame f = new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(client), RackAddressing.hostIp(client),
                RackAddressing.hostIp(SERVER), CLIENT_PORT, KvOp.KV_PORT, msg.encode());
        return only(sw.process(RackPorts.portOf(client), f.encode()));
    }

    /** A server's reply to {@code reqId} on its way back to the client. */
    Out fromServer(InnetMessage reply) throws WireException {
        UdpFrame f = new UdpFrame(RackAddressing.hostMac(CLIENT), RackAddressing.hostMac(SERVER), RackAddressing.hostIp(SERVER),
                RackAddressing.hostIp(CLIENT), KvOp.KV_PORT, CLIENT_PORT, reply.encode());
        return only(sw.process(RackPorts.portOf(SERVER), f.encode()));
    }

    /** Every packet a client request makes the switch emit (none if it was dropped). */
    List<Out> allFromClient(int client, int op, long reqId, byte[] key, byte[] value) throws WireException {
        InnetMessage msg = InnetMessage.of(op, reqId, key, 0, value);
        UdpFrame f = new UdpFrame(RackAddressing.hostMac(SERVER), RackAddressing.hostMac(client), RackAddressing.hostIp(client),
                RackAddressing.hostIp(SERVER), CLIENT_PORT, KvOp.KV_PORT, msg.encode());
        List<Out> out = new java.util.ArrayList<>();
        for (P4Switch.OutPacket p : sw.process(RackPorts.portOf(client), f.encode())) {
            out.add(new Out(p.port(), InnetPacket.decode(p.frame()).message()));
        }
        return out;
    }

    private static Out only(List<P4Switch.OutPacket> out) throws WireException {
        assertEquals(1, out.size(), "packets emitted: " + out);
        return new Out(out.getFirst().port(), InnetPacket.decode(out.getFirst().frame()).message());
    }

    static int portOf(int host) {
        return RackPorts.portOf(host);
    }
}
