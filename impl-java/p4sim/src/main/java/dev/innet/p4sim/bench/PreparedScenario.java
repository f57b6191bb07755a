package dev.innet.p4sim.bench;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.runtime.RegisterArray;
import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.switchapi.SwitchControl;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * A benchmark's switch state, made the way every veth measurement starts: the scenario's commands and its
 * packets before the workload packet run on an in-process p4sim. The control calls they made are kept, so
 * that another target (bmv2 through its runtime CLI) can be brought to the same state by {@link #copyTo}:
 * the same calls, then every register cell the data plane left non-zero. Counters and meters are not
 * copied (no benchmark workload reads them).
 *
 * @param workloadPort  the port the workload packet enters on
 * @param workloadFrame the workload packet, sent repeatedly
 */
public record PreparedScenario(Path program, P4Switch prepared, List<RecordedCall> calls, int workloadPort,
        byte[] workloadFrame) {

    /** One state-changing control call, for replay on another target. */
    public record RecordedCall(Method method, Object[] args) {
        void replayOn(SwitchControl target) {
            try {
                method.invoke(target, args);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            }
        }

        @Override
        public String toString() {
            return method.getName() + java.util.Arrays.toString(args);
        }
    }

    /** Calls that only read or subscribe: nothing to replay. */
    private static final Set<String> NOT_STATE = Set.of("readEntries", "readDefaultAction", "registerRead", "counterRead",
            "directCounterRead", "meterRead", "valueSetRead", "onPacketIn", "onDigest", "packetOut");

    /** Runs the scenario's lines before packet {@code packetIndex} (from 1) on a fresh in-process switch. */
    public static PreparedScenario of(Path program, Path stf, int packetIndex) throws Exception {
        P4Switch sw = P4Sim.compile(program).instantiate();
        List<String> prefix = new ArrayList<>();
        String workload = null;
        int seen = 0;
        for (String l : Files.readAllLines(stf)) {
            if (l.startsWith("packet ") && ++seen == packetIndex) {
                workload = l;
                break;
            }
            prefix.add(l);
        }
        if (workload == null) {
            throw new IllegalArgumentException(stf + " has fewer than " + packetIndex + " packets");
        }
        List<RecordedCall> calls = new ArrayList<>();
        SwitchControl recording = recording(sw.control(), calls);
        List<String> failures = new StfRunner(sw, recording).run(stf.toString(), String.join("\n", prefix));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("scenario prefix failed: " + failures);
        }
        String[] w = workload.split("\\s+", 3);
        return new PreparedScenario(program, sw, List.copyOf(calls), Integer.parseInt(w[1]),
                HexFormat.of().parseHex(w[2].replaceAll("\\s+", "")));
    }

    /** {@code control}, with every state-changing call also appended to {@code calls}. */
    private static SwitchControl recording(SwitchControl control, List<RecordedCall> calls) {
        return (SwitchControl) Proxy.newProxyInstance(SwitchControl.class.getClassLoader(), new Class<?>[] {SwitchControl.class},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(control, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause(); // a refused call changed nothing: not recorded
                    }
                    if (method.getDeclaringClass() == SwitchControl.class && !NOT_STATE.contains(method.getName())) {
                        calls.add(new RecordedCall(method, args == null ? new Object[0] : args.clone()));
                    }
                    return result;
                });
    }

    /**
     * Brings {@code target}, a switch running the same program from its initial state, to the prepared state:
     * the recorded control calls in order, then each non-zero register cell. Returns the cells written.
     */
    public int copyTo(SwitchControl target) {
        for (RecordedCall c : calls) {
            c.replayOn(target);
        }
        int written = 0;
        SwitchControl source = prepared.control();
        for (RegisterArray r : prepared.program().registers().values()) {
            List<BigInteger> cells = source.registerRead(r.name, 0, r.size - 1);
            for (int i = 0; i < cells.size(); i++) {
                if (cells.get(i).signum() != 0) {
                    target.registerWrite(r.name, i, cells.get(i));
                    written++;
                }
            }
        }
        return written;
    }
}
