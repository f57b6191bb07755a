package dev.innet.p4runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.TextFormat;
import dev.innet.p4sim.P4Sim;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.p4.config.v1.MatchField;
import org.p4.config.v1.P4Ids;
import org.p4.config.v1.P4Info;

class P4InfoBuilderTest {
    private static final Path ROOT = Path.of(System.getProperty("innet.root", "../.."));

    /** Ids p4c assigns in the P4 tutorials' basic.p4info (p4lang/tutorials), which hash these names. */
    @Test
    void hashedIdsAreTheOnesP4cAssigns() {
        IdAllocator ids = new IdAllocator();
        ids.declare(P4Ids.Prefix.TABLE_VALUE, "MyIngress.ipv4_lpm", null);
        ids.declare(P4Ids.Prefix.ACTION_VALUE, "MyIngress.ipv4_forward", null);
        ids.declare(P4Ids.Prefix.ACTION_VALUE, "MyIngress.drop", null);
        ids.declare(P4Ids.Prefix.ACTION_VALUE, "NoAction", null);
        Map<Integer, Map<String, Integer>> assigned = ids.assign();
        assertEquals(37375156, assigned.get(P4Ids.Prefix.TABLE_VALUE).get("MyIngress.ipv4_lpm"));
        assertEquals(28792405, assigned.get(P4Ids.Prefix.ACTION_VALUE).get("MyIngress.ipv4_forward"));
        assertEquals(25652968, assigned.get(P4Ids.Prefix.ACTION_VALUE).get("MyIngress.drop"));
        assertEquals(21257015, assigned.get(P4Ids.Prefix.ACTION_VALUE).get("NoAction"));
    }

    @Test
    void explicitIdsGetTheirPrefixAndCollisionsProbe() {
        IdAllocator ids = new IdAllocator();
        int hashed = (P4Ids.Prefix.ACTION_VALUE << 24) | (IdAllocator.jenkinsOneAtATime("a") & 0xffffff);
        ids.declare(P4Ids.Prefix.ACTION_VALUE, "taken", hashed); // already carries the right prefix
        ids.declare(P4Ids.Prefix.ACTION_VALUE, "a", null);
        ids.declare(P4Ids.Prefix.TABLE_VALUE, "t", 7);
        var assigned = ids.assign();
        assertEquals(hashed, assigned.get(P4Ids.Prefix.ACTION_VALUE).get("taken"));
        assertEquals(hashed + 1, assigned.get(P4Ids.Prefix.ACTION_VALUE).get("a"));
        assertEquals(0x02000007, assigned.get(P4Ids.Prefix.TABLE_VALUE).get("t"));

        IdAllocator wrongPrefix = new IdAllocator();
        wrongPrefix.declare(P4Ids.Prefix.TABLE_VALUE, "t", 0x01000007);
        assertTrue(assertThrows(IllegalArgumentException.class, wrongPrefix::assign).getMessage().contains("wrong 8-bit prefix"));
        IdAllocator twice = new IdAllocator();
        twice.declare(P4Ids.Prefix.TABLE_VALUE, "t", 7);
        twice.declare(P4Ids.Prefix.TABLE_VALUE, "u", 7);
        assertTrue(assertThrows(IllegalArgumentException.class, twice::assign).getMessage().contains("more than one declaration"));
    }

    @Test
    void testProgramP4Info() throws Exception {
        P4Info info = P4InfoBuilder.build(P4Sim.compile(Path.of(getClass().getResource("/p4rt.p4").toURI())));
        var acl = info.getTablesList().stream().filter(t -> t.getPreamble().getName().equals("MyIngress.acl")).findFirst().orElseThrow();
        assertEquals(0x02000007, acl.getPreamble().getId());
        assertEquals("acl", acl.getPreamble().getAlias());
        assertEquals(MatchField.MatchType.TERNARY, acl.getMatchFields(0).getMatchType());
        assertEquals("hdr.eth.src", acl.getMatchFields(1).getName());
        assertEquals(48, acl.getMatchFields(1).getBitwidth());
        assertEquals(1024, acl.getSize()); // bmv2's default
        var setPort = info.getActionsList().stream().filter(a -> a.getPreamble().getName().equals("MyIngress.set_port")).findFirst().orElseThrow();
        assertEquals(9, setPort.getParams(0).getBitwidth());
        assertEquals(P4Ids.Prefix.COUNTER_VALUE, info.getCounters(0).getPreamble().getId() >>> 24);
        assertEquals(16, info.getCounters(0).getSize());
        assertEquals(P4Ids.Prefix.REGISTER_VALUE, info.getRegisters(0).getPreamble().getId() >>> 24);
        assertEquals(32, info.getRegisters(0).getTypeSpec().getBitstring().getBit().getBitwidth());
        assertEquals("learn_t", info.getDigests(0).getTypeSpec().getStruct().getName());
        assertEquals(2, info.getTypeInfo().getStructsOrThrow("learn_t").getMembersCount());
        assertEquals("packet_in", info.getControllerPacketMetadata(0).getPreamble().getName());
        assertEquals(9, info.getControllerPacketMetadata(0).getMetadata(0).getBitwidth());
        // the text format (what --p4info writes) parses back to the same P4Info
        P4Info.Builder parsed = P4Info.newBuilder();
        TextFormat.merge(TextFormat.printer().printToString(info), parsed);
        assertEquals(info, parsed.build());
    }

    @Test
    void everyRepositoryProgramHasAP4InfoWithUniqueIds() throws Exception {
        for (String name : new String[] {"netcache", "farreach", "nocache", "pegasus", "visibility", "lake"}) {
            P4Info info = P4InfoBuilder.build(P4Sim.compile(ROOT.resolve("p4/" + name + ".p4")));
            var ids = new java.util.HashSet<Integer>();
            info.getTablesList().forEach(t -> assertTrue(ids.add(t.getPreamble().getId()), name));
            info.getActionsList().forEach(a -> assertTrue(ids.add(a.getPreamble().getId()), name));
            info.getRegistersList().forEach(r -> assertTrue(ids.add(r.getPreamble().getId()), name));
            assertTrue(info.getTablesCount() > 0, name);
        }
    }
}
