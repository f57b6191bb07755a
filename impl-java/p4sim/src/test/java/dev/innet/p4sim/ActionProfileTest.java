package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.switchapi.ControlException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Action profiles and selectors through bmv2's CLI commands (profiles.p4). The selector's member is
 * crc16(flow) mod the number of members, counting members in handle order; crc16 (CRC-16/ARC) of the
 * 2-byte flow values, computed independently: 0 -> 0x0000, 1 -> 0xc0c1, 3 -> 0x0140 (320), 5 -> 0x03c0
 * (960), 6 -> 0x0280 (640).
 */
class ActionProfileTest {
    /** k(1) flow(2) out1(1) out2(1) */
    private static String pkt(int k, int flow) {
        return String.format("%02x%04x0000", k, flow);
    }

    private static String run(P4Switch sw, int k, int flow) {
        List<P4Switch.OutPacket> out = sw.process(0, hex(pkt(k, flow)));
        assertEquals(1, out.size());
        return out.get(0).port() + ":" + TestPrograms.hex(out.get(0).frame());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void membersAndGroupsDecideWhatAnEntryRuns(boolean specialize) {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("profiles.p4")).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
        CliSession cli = new CliSession(sw);
        // the inline action_profile is named after its table
        assertEquals(List.of("Member has been created with handle 0"), cli.execute("act_prof_create_member I.prof_t set1 0x11"));
        assertEquals(List.of("Member has been created with handle 1"), cli.execute("act_prof_create_member I.prof_t set1 0x22"));
        assertEquals(List.of("Entry has been added with handle 0"), cli.execute("table_indirect_add I.prof_t 0x05 => 1"));
        assertEquals("1:0500002200", run(sw, 5, 0));
        cli.execute("act_prof_modify_member I.prof_t set1 1 0x33");
        assertEquals("1:0500003300", run(sw, 5, 0));
        assertEquals("1:0600000000", run(sw, 6, 0)); // miss: NoAction

        // the selector: three members, a group of the first two
        for (String m : new String[] {"set2 0xA0 2", "set2 0xB1 3", "set2 0xC2 4"}) {
            cli.execute("act_prof_create_member I.sel " + m);
        }
        assertEquals(List.of("Group has been created with handle 0"), cli.execute("act_prof_create_group sel"));
        cli.execute("act_prof_add_member_to_group sel 0 0");
        cli.execute("act_prof_add_member_to_group sel 1 0");
        assertEquals(List.of("Entry has been added with handle 0"), cli.execute("table_indirect_add_with_group I.sel_t 0x05&&&0xFF => 0 1"));
        assertEquals("2:05000033a0", run(sw, 5, 0)); // 0 mod 2 = 0: member 0
        assertEquals("3:05000133b1", run(sw, 5, 1)); // 0xc0c1 mod 2 = 1: member 1
        assertEquals("2:05000333a0", run(sw, 5, 3)); // 320 mod 2 = 0
        cli.execute("act_prof_add_member_to_group sel 2 0");
        assertEquals("4:05000333c2", run(sw, 5, 3)); // 320 mod 3 = 2: member 2
        assertEquals("2:05000533a0", run(sw, 5, 5)); // 960 mod 3 = 0
        assertEquals("3:05000633b1", run(sw, 5, 6)); // 640 mod 3 = 1
        cli.execute("act_prof_remove_member_from_group sel 0 0");
        assertEquals("3:05000033b1", run(sw, 5, 0)); // members 1, 2: 0 mod 2 = 0 -> member 1
        assertEquals("4:05000133c2", run(sw, 5, 1));

        // an empty group runs the default action, as a miss
        assertEquals(List.of("Group has been created with handle 1"), cli.execute("act_prof_create_group sel"));
        cli.execute("table_indirect_add_with_group I.sel_t 0x07&&&0xFF => 1 1");
        assertEquals("1:0700000000", run(sw, 7, 0));
        // the default can be a member, and follows later changes of it
        cli.execute("table_indirect_set_default I.sel_t 2");
        assertEquals("4:08000000c2", run(sw, 8, 0));
        cli.execute("act_prof_modify_member I.sel set2 2 0xC3 4");
        assertEquals("4:08000000c3", run(sw, 8, 0));
        // or a group: group 0 (members 1, 2) picks by the hash as for an entry; a miss all the same
        cli.execute("table_indirect_set_default_with_group I.sel_t 0");
        assertEquals("3:08000000b1", run(sw, 8, 0));
        assertEquals("4:08000100c3", run(sw, 8, 1));
        // the empty group 1 hit by k = 7 now runs that default group
        assertEquals("3:07000000b1", run(sw, 7, 0));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true})
    void misuseIsRefusedWithoutEffect(boolean specialize) {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("profiles.p4")).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
        CliSession cli = new CliSession(sw);
        cli.execute("act_prof_create_member I.prof_t set1 0x11");
        cli.execute("table_indirect_add I.prof_t 0x05 => 0");
        ControlException e = assertThrows(ControlException.class, () -> cli.execute("table_add I.prof_t set1 0x06 => 0x11"));
        assertTrue(e.getMessage().contains("has an action profile"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("act_prof_delete_member I.prof_t 0"));
        assertTrue(e.getMessage().contains("is used by an entry of table I.prof_t"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("act_prof_create_group I.prof_t"));
        assertTrue(e.getMessage().contains("only action selectors have groups"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("table_indirect_add I.prof_t 0x06 => 7"));
        assertTrue(e.getMessage().contains("no member 7"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("act_prof_create_member I.prof_t set2 1 2"));
        assertTrue(e.getMessage().contains("set2"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("act_prof_create_member nope set1 1"));
        assertTrue(e.getMessage().contains("unknown action profile 'nope'"), e.getMessage());
        assertEquals(List.of("1"), cli.execute("table_num_entries I.prof_t"));
        // deleting the entry frees the member
        cli.execute("table_indirect_delete I.prof_t 0");
        cli.execute("act_prof_delete_member I.prof_t 0");
        assertEquals("1:0500000000", run(sw, 5, 0));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void profilesTakeTheirControlPlaneNamesFromNameAnnotations(boolean specialize) throws Exception {
        // profiles.p4 with @name on the selector instance (global) and on the table with an inline profile
        String source = Files.readString(TestPrograms.stf("profiles.p4"))
                .replace("action_selector(HashAlgorithm.crc16, 32w64, 32w16) sel;",
                        "@name(\".lb\") action_selector(HashAlgorithm.crc16, 32w64, 32w16) sel;")
                .replace("table prof_t {", "@name(\"fwd\") table prof_t {");
        P4Switch sw = P4Sim.compileText("named_profiles.p4", source)
                .instantiate(SwitchConfig.defaults().withSpecialization(specialize));
        CliSession cli = new CliSession(sw);
        // the inline profile is named as its table is
        assertEquals(List.of("Member has been created with handle 0"), cli.execute("act_prof_create_member I.fwd set1 0x11"));
        cli.execute("table_indirect_add I.fwd 0x05 => 0");
        assertEquals(List.of("Member has been created with handle 0"), cli.execute("act_prof_create_member lb set2 0xA0 2"));
        cli.execute("table_indirect_add I.sel_t 0x05&&&0xFF => 0 1");
        assertEquals("2:05000011a0", run(sw, 5, 0));
        // the source names are not control-plane names
        for (String old : new String[] {"I.prof_t", "I.sel"}) {
            ControlException e = assertThrows(ControlException.class, () -> cli.execute("act_prof_create_member " + old + " set1 0x11"));
            assertTrue(e.getMessage().contains("unknown action profile '" + old + "'"), e.getMessage());
        }
    }
}
