package dev.innet.p4sim;

import static dev.innet.p4sim.TestPrograms.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.p4sim.cli.CliSession;
import dev.innet.p4sim.runtime.CustomCrc;
import dev.innet.p4sim.runtime.P4AbortException;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import dev.innet.switchapi.ControlException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** assert/assume and run-time division as bmv2 treats them (the switch dies), custom CRC parameters. */
class ExternBehaviourTest {
    /** externs2.p4's header with op, x and y set; everything else 0; payload ab cd ef. */
    private static byte[] packet(int op, int x, int y) {
        return hex(String.format("%02x 1234 0000 00 0000 0000 00000000 00000000 00 0000 %02x %02x 00 00 abcdef", op, x, y));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailedAssertStopsTheSwitchAsBmv2Aborts(boolean specialize) {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("externs2.p4")).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
        assertEquals(1, sw.process(0, packet(1, 17, 5)).size());
        P4AbortException e = assertThrows(P4AbortException.class, () -> sw.process(0, packet(0xFF, 17, 5)));
        assertTrue(e.getMessage().startsWith("Assert error: hdr.h.op != 255 failed, file "), e.getMessage());
        assertTrue(e.getMessage().endsWith("externs2.p4, line 39"), e.getMessage());
        assertSame(e, sw.aborted());
        // like a dead simple_switch: nothing more is processed, even a packet that would pass
        P4AbortException later = assertThrows(P4AbortException.class, () -> sw.process(0, packet(1, 17, 5)));
        assertTrue(later.getMessage().contains("stopped earlier: Assert error"), later.getMessage());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aFailedAssumeAndADivisionByZeroStopTheSwitchToo(boolean specialize) {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("externs2.p4")).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
        P4AbortException e = assertThrows(P4AbortException.class, () -> sw.process(0, packet(0xFE, 17, 5)));
        assertTrue(e.getMessage().startsWith("Assume error: hdr.h.op != 254 failed"), e.getMessage());
        P4Switch sw2 = P4Sim.compile(TestPrograms.stf("externs2.p4")).instantiate(SwitchConfig.defaults().withSpecialization(specialize));
        e = assertThrows(P4AbortException.class, () -> sw2.process(0, packet(1, 17, 0)));
        assertTrue(e.getMessage().startsWith("division by zero: hdr.h.x / hdr.h.y"), e.getMessage());
    }

    /** The standard CRC catalogue's check values over "123456789". */
    @Test
    void customCrcsComputeTheCataloguedCheckValues() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        CustomCrc c16 = new CustomCrc("c", 16, "here");
        assertEquals(0xBB3D, c16.compute(check, 9)); // default: CRC-16/ARC, as bmv2's crc16_custom
        c16.configure(0x1021, 0xFFFF, 0, false, false);
        assertEquals(0x29B1, c16.compute(check, 9)); // CRC-16/CCITT-FALSE
        c16.configure(0x1021, 0, 0, false, false);
        assertEquals(0x31C3, c16.compute(check, 9)); // CRC-16/XMODEM
        CustomCrc c32 = new CustomCrc("d", 32, "here");
        assertEquals(0xCBF43926L, c32.compute(check, 9)); // default: CRC-32, as bmv2's crc32_custom
        c32.configure(0x04C11DB7L, 0xFFFFFFFFL, 0xFFFFFFFFL, false, false);
        assertEquals(0xFC891918L, c32.compute(check, 9)); // CRC-32/BZIP2
        c32.configure(0x1EDC6F41L, 0xFFFFFFFFL, 0xFFFFFFFFL, true, true);
        assertEquals(0xE3069283L, c32.compute(check, 9)); // CRC-32C
    }

    @Test
    void theControlPlaneSetsCustomCrcParametersByCalculationName() {
        P4Switch sw = P4Sim.compile(TestPrograms.stf("externs2.p4")).instantiate();
        CliSession cli = new CliSession(sw);
        List<String> calcs = cli.execute("p4sim_show_calculations");
        assertEquals(2, calcs.size(), calcs.toString());
        String c16 = calcs.stream().filter(l -> l.contains("crc16_custom")).findFirst().orElseThrow().split(" ")[0];
        String c32 = calcs.stream().filter(l -> l.contains("crc32_custom")).findFirst().orElseThrow().split(" ")[0];
        byte[] before = sw.process(0, packet(1, 17, 5)).get(0).frame();
        // CRC-16/XMODEM over 12 34 and CRC-32/BZIP2 over 12 34 (computed independently in Python)
        cli.execute("set_crc16_parameters " + c16 + " 0x1021 0x0 0x0 false false");
        cli.execute("set_crc32_parameters " + c32 + " 0x04c11db7 0xffffffff 0xffffffff false false");
        byte[] after = sw.process(0, packet(1, 17, 5)).get(0).frame();
        // offsets: op 0, a 1, csum 3, cerr 5, c16 6, c16c 8, c32 10, c32c 14
        assertArrayEquals(hex("770d 770d"), java.util.Arrays.copyOfRange(before, 6, 10)); // defaults: as crc16
        assertArrayEquals(hex("770d 13c6"), java.util.Arrays.copyOfRange(after, 6, 10)); // crc16 itself unchanged
        assertArrayEquals(hex("18999699 88dd85d2"), java.util.Arrays.copyOfRange(after, 10, 18));
        ControlException e = assertThrows(ControlException.class,
                () -> cli.execute("set_crc32_parameters " + c16 + " 1 2 3 true true"));
        assertTrue(e.getMessage().contains("is crc16_custom, not crc32_custom"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("set_crc16_parameters nope 1 2 3 true true"));
        assertTrue(e.getMessage().contains("unknown custom CRC calculation 'nope'"), e.getMessage());
        e = assertThrows(ControlException.class, () -> cli.execute("set_crc16_parameters " + c16 + " 1 2 3 yes true"));
        assertTrue(e.getMessage().contains("'yes' is not true or false"), e.getMessage());
    }
}
