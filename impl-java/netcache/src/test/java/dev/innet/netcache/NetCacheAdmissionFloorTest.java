package dev.innet.netcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.kv.cache.CacheControlNames;
import dev.innet.kv.cache.CacheRegisters;
import dev.innet.kv.cache.SeqProbe;
import dev.innet.protocol.KvResult;
import dev.innet.rack.Rack;
import dev.innet.rack.RackRuns;
import dev.innet.rack.check.RunVerdict;
import dev.innet.rack.workload.DriverClient;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Admission's fill floor (NetCache.tla's Admit: {@code fillFloor[k] = FloorUnknown} until AdmitFloor). Until
 * the probe of the key's server returns, the switch cannot know whether a reply passing it is older than the
 * server's record at the install (a GET_FOR_CACHE reply from before an eviction, still in flight), so no reply
 * may make the admitted record valid. mutate/catalogue.txt's {@code netcache-admit-without-floor} (floor 0 at
 * admission) is caught here: the reads validate the record and the switch answers them.
 */
class NetCacheAdmissionFloorTest {
    private static final int READS = 40;

    @Test
    void noReplyValidatesAnAdmittedRecordBeforeItsProbeIsAnswered() throws Exception {
        AtomicInteger admissions = new AtomicInteger();
        NetCacheProtocol unanswered = new NetCacheProtocol().withControllers((config, handle) ->
                new NetCacheController(config, handle) {
                    @Override
                    protected Admit newAdmit(int index, byte[] key) {
                        admissions.incrementAndGet();
                        NetCacheController self = this;
                        return new Admit(this, index, key) {
                            @Override
                            protected SeqProbe newProbe() {
                                // the probe and its retransmissions go out, no reply is taken as the answer
                                return new SeqProbe(self, key) {
                                    @Override
                                    public boolean answers(InnetMessage msg) {
                                        return false;
                                    }
                                };
                            }
                        };
                    }
                });
        byte[] hot = InnetMessage.key("user0");
        Rack rack = Rack.builder(RackRuns.root(), 11).protocol(unanswered).driverClients().hotThreshold(8)
                .out(RackRuns.QUIET).build();
        rack.advance(1_000_000); // the controller programs the switch
        List<KvResult> writes = new ArrayList<>();
        rack.submit(rack.clients().get(0), DriverClient.Kind.PUT, hot, "hot".getBytes(StandardCharsets.UTF_8),
                writes::add);
        rack.advance(500_000);
        assertEquals(1, writes.size());
        assertEquals(KvResult.Outcome.OK, writes.get(0).outcome());

        List<KvResult> reads = new ArrayList<>();
        for (int i = 0; i < READS; i++) {
            rack.submit(rack.clients().get(0), DriverClient.Kind.GET, hot, null, reads::add);
            rack.advance(100_000);
        }
        assertEquals(READS, reads.size(), "every read completed");
        assertTrue(admissions.get() >= 1, "the key was never reported hot and admitted");
        SwitchControl control = rack.switchHandle("tor").control();
        int index = CacheRegisters.indexOf(control, hot);
        assertTrue(index >= 0, "the admitted key has no lookup entry");
        assertTrue(reads.stream().noneMatch(KvResult::fromSwitch),
                "the switch answered a read of a record whose fill floor it does not know: " + reads);
        assertEquals(CacheControlNames.FLOOR_UNKNOWN, control.registerRead(CacheControlNames.RECORD_FILL_FLOOR, index)
                .longValue(), "the fill floor is known although the probe was never answered");
        RunVerdict verdict = RackRuns.verdict(rack, "netcache-admission-floor");
        assertTrue(verdict.safe(), verdict.describe());
    }
}
