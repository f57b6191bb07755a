package dev.innet.rack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import org.junit.jupiter.api.Test;

class SwitchTrafficTest {
    @Test
    void countsInnetFramesByOpAndEverythingElseAsNotInnet() {
        byte[] get = new UdpFrame(1, 2, 3, 4, 5008, 5008,
                InnetMessage.of(0x01, 7, InnetMessage.key("k"), 0, new byte[0]).encode()).encode();
        byte[] junk = new byte[] {1, 2, 3};
        SwitchTraffic t = new SwitchTraffic();
        t.sawIngress(3, get, get.length);
        t.sawIngress(3, get, get.length);
        t.sawIngress(3, junk, junk.length);
        t.sawEgress(5, get, get.length);
        assertEquals(2, t.sentBy(3).get(0x01).frames);
        assertEquals(2L * get.length, t.sentBy(3).get(0x01).bytes);
        assertEquals(1, t.sentBy(3).get(SwitchTraffic.NOT_INNET).frames);
        assertEquals(1, t.receivedBy(5).get(0x01).frames);
        assertEquals(0, t.receivedBy(3).size());
    }
}
