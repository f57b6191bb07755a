package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.cli.ControlServer;
import dev.innet.p4sim.cli.RemoteSwitchControl;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MeterConfig;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** v1model meters (indexed and direct): RFC 2698 two-rate three-color marking on the injected clock. */
class MeterTest {
    private static final String PROGRAM = """
            #include <v1model.p4>
            header h_t { bit<8> k; bit<8> color; bit<8> dcolor; }
            struct headers { h_t h; }
            struct metadata { }
            parser P(packet_in pkt, out headers hdr, inout metadata m, inout standard_metadata_t sm) {
                state start { pkt.extract(hdr.h); transition accept; }
            }
            control VC(inout headers hdr, inout metadata m) { apply { } }
            control I(inout headers hdr, inout metadata m, inout standard_metadata_t sm) {
                meter(4, MeterType.packets) rate;
                direct_meter<bit<8>>(MeterType.packets) per_entry;
                action mark() { per_entry.read(hdr.h.dcolor); }
                table t { key = { hdr.h.k : exact; } actions = { mark; NoAction; } default_action = NoAction(); meters = per_entry; }
                apply {
                    sm.egress_spec = 1;
                    rate.execute_meter((bit<32>) hdr.h.k, hdr.h.color);
                    t.apply();
                }
            }
            control E(inout headers hdr, inout metadata m, inout standard_metadata_t sm) { apply { } }
            control CC(inout headers hdr, inout metadata m) { apply { } }
            control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
            V1Switch(P(), VC(), I(), E(), CC(), D()) main;
            """;

    private final long[] now = {0};

    private P4Switch meterSwitch() {
        return P4Sim.compileText("m.p4", PROGRAM).instantiate(SwitchConfig.defaults().withClock(() -> now[0]));
    }

    /** (color, direct color) of each packet sent with key k at the current time. */
    private static List<String> send(P4Switch sw, int k, int count) {
        List<String> colors = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] out = sw.process(0, hex(String.format("%02x0000", k))).get(0).frame();
            colors.add(out[1] + "/" + out[2]);
        }
        return colors;
    }

    @Test
    void twoRateThreeColorMarking() {
        P4Switch sw = meterSwitch();
        // unconfigured meters mark GREEN (0), as in bmv2
        assertEquals(List.of("0/0", "0/0"), send(sw, 1, 2));
        assertNull(sw.control().meterRead("rate", 1));
        // 1 packet per ms committed (burst 2), 2 per ms peak (burst 4)
        MeterConfig cfg = new MeterConfig(0.001, 2, 0.002, 4);
        sw.control().meterSet("rate", 1, cfg);
        assertEquals(cfg, sw.control().meterRead("I.rate", 1));
        assertEquals(List.of("0/0", "0/0", "1/0", "1/0", "2/0"), send(sw, 1, 5));
        now[0] += 1000; // one committed token and two peak tokens come back
        assertEquals(List.of("0/0", "1/0", "2/0"), send(sw, 1, 3));
        // another index is independent
        assertEquals(List.of("0/0"), send(sw, 2, 1));
    }

    @Test
    void directMetersPerEntryThroughTheCliAndTheControlPort() throws Exception {
        P4Switch sw = meterSwitch();
        CliSession cli = new CliSession(sw);
        cli.execute("table_add t mark 5 =>");
        cli.execute("meter_set_rates per_entry 0 0.001:1 0.001:2");
        assertEquals(List.of("5/0", "5/1", "5/2"), send(sw, 5, 3).stream().map(x -> "5/" + x.split("/")[1]).toList());
        sw.control().addEntry(new EntrySpec("t", List.of(Match.exact(6)), 0, "mark", List.of()));
        try (ControlServer server = new ControlServer(0, cli, sw); RemoteSwitchControl remote = new RemoteSwitchControl(server.port())) {
            remote.directMeterSet("t", List.of(Match.exact(6)), 0, new MeterConfig(0.0, 0, 0.0, 1));
            remote.meterSet("rate", 3, new MeterConfig(0.5, 10, 1.0, 20));
            assertEquals(new MeterConfig(0.5, 10, 1.0, 20), remote.meterRead("rate", 3));
        }
        assertEquals(List.of("0/1", "0/2"), send(sw, 6, 2));
    }
}
