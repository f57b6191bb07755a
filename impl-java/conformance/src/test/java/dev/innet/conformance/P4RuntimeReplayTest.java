package dev.innet.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.innet.farreach.spec.FarReachConformance;
import dev.innet.netcache.spec.NetCacheConformance;
import dev.innet.p4runtime.P4RuntimeSwitchControl;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.protocol.spec.SpecConformance;
import dev.innet.protocol.spec.SpecStep;
import dev.innet.switchapi.SwitchControl;
import dev.innet.tracegen.TraceCase;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The replay with its control plane over P4Runtime ({@code ./innet conform --switch-api p4runtime}): every
 * curated FarReach and NetCache trace gives the same result through P4Runtime as through p4sim's direct
 * control API (pass, fail or not replayed, with the same step, variable and values).
 */
class P4RuntimeReplayTest {
    private static final Path ROOT = FarReachReplayTest.root();

    private static void sameResultsOnBothApis(String protocol, SpecConformance conformance, int curated,
            int passing) throws Exception {
        Path program = ROOT.resolve(protocol.equals("farreach") ? "p4/farreach.p4" : "p4/netcache.p4");
        Supplier<ReplayTarget> direct = P4simReplayTarget.factory(ROOT, program, 1);
        Supplier<ReplayTarget> overP4Runtime = P4RuntimeReplayTarget.factory(ROOT, program, 1, null);
        int replayed = 0;
        int passed = 0;
        for (Path file : ConformanceSuite.traceFiles(ROOT.resolve("conformance").resolve(protocol))) {
            List<SpecStep> trace = SpecTraces.fromTraceCase(TraceCase.read(file));
            Replayer.Result viaApi = Replayer.replay(conformance, direct, trace);
            Replayer.Result viaP4Runtime = Replayer.replay(conformance, overP4Runtime, trace);
            assertEquals(viaApi, viaP4Runtime, file + ": the direct API and P4Runtime disagree");
            if (viaP4Runtime instanceof Replayer.Result.Passed) {
                passed++;
            }
            replayed++;
        }
        assertEquals(curated, replayed, "the curated " + protocol + " traces");
        // a trace may stop where the implementation cannot follow the spec (NotReplayed): the same on both APIs
        assertEquals(passing, passed, "the curated " + protocol + " traces that pass");
    }

    @Test
    void curatedFarReachTracesPassOverP4RuntimeAsOverTheDirectApi() throws Exception {
        sameResultsOnBothApis("farreach", new FarReachConformance(), 11, 8);
    }

    @Test
    void curatedNetCacheTracesPassOverP4RuntimeAsOverTheDirectApi() throws Exception {
        sameResultsOnBothApis("netcache", new NetCacheConformance(), 8, 8);
    }

    /** The control really is a P4Runtime client of the switch the frames go through, and a crash empties both. */
    @Test
    void theControlIsAP4RuntimeClientOfTheSameSwitchAndACrashReplacesIt() throws Exception {
        Path program = ROOT.resolve("p4/netcache.p4");
        try (P4RuntimeReplayTarget target = (P4RuntimeReplayTarget) P4RuntimeReplayTarget.factory(ROOT, program, 1, null).get()) {
            SwitchControl control = target.control();
            assertInstanceOf(P4RuntimeSwitchControl.class, control);
            String register = "MyIngress.record_valid";
            control.registerWrite(register, 3, BigInteger.ONE);
            // written through P4Runtime, seen by the switch's own in-process control API
            assertEquals(BigInteger.ONE, target.p4Switch().control().registerRead(register, 3));
            target.crash();
            assertNotSame(control, target.control(), "a new client for the new switch");
            assertEquals(BigInteger.ZERO, target.control().registerRead(register, 3), "the new switch is empty");
            ReplayTarget other = target.another();
            other.control().registerWrite(register, 3, BigInteger.ONE);
            assertEquals(BigInteger.ZERO, target.control().registerRead(register, 3), "another switch has its own registers");
            assertEquals(BigInteger.ONE, other.control().registerRead(register, 3));
            assertTrue(other instanceof P4RuntimeReplayTarget);
        }
    }
}
