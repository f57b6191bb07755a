package dev.innet.p4sim.compiler;

import dev.innet.p4sim.runtime.ArchState;
import dev.innet.p4sim.runtime.CounterArray;
import dev.innet.p4sim.runtime.Exec;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.runtime.TableRuntime;
import java.util.List;
import java.util.Map;

/**
 * One executable instance of a v1model program: the six compiled blocks, the frame layout, and the
 * run-time objects (tables, registers, counters) the control plane manipulates. {@code coverage}: the
 * instance's coverage counters, or null if it was compiled without them. {@code memories}: which
 * {@code @innet_memory} memories a packet touched (none declared: never marked).
 */
public record CompiledProgram(
        int slots,
        int hdrBase,
        int hdrSlots,
        int metaBase,
        int metaSlots,
        int smBase,
        int smSlots,
        Map<String, Integer> smFields,
        Exec parser,
        Exec verifyChecksum,
        Exec ingress,
        Exec egress,
        Exec computeChecksum,
        Exec deparser,
        ArchState arch,
        Map<String, TableRuntime> tables,
        Map<String, RegisterArray> registers,
        Map<String, CounterArray> counters,
        Map<String, dev.innet.p4sim.runtime.MeterArray> meters,
        Map<Integer, List<int[]>> fieldLists,
        List<String> errorNames,
        dev.innet.p4sim.coverage.CoverageRecorder coverage,
        dev.innet.p4sim.runtime.MemoryAccesses memories) {

    public int sm(String field) {
        Integer off = smFields.get(field);
        if (off == null) {
            throw new IllegalArgumentException("no standard_metadata field " + field);
        }
        return smBase + off;
    }
}
