package dev.innet.p4sim.v1model;

import dev.innet.p4sim.compiler.CompiledProgram;
import dev.innet.p4sim.coverage.Coverage;
import dev.innet.p4sim.coverage.CoverageRecorder;
import dev.innet.p4sim.runtime.P4AbortException;
import dev.innet.switchapi.SwitchControl;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * One p4sim switch: a compiled program instance, its v1model packet path and its control plane.
 * Not thread-safe and never starts threads: the embedding simulator calls {@link #process} and the
 * control methods from its own event loop.
 */
public final class P4Switch {
    private final V1ModelPipeline pipeline;
    private final InProcessControl control;
    private final SwitchConfig config;
    private final CompiledProgram prog;
    /** Where the outputs of control-plane packet-outs go ({@link #setPacketOutSink}); by default nowhere. */
    private PacketSink currentSink = (port, buf, off, len) -> { };
    /** Set by a failed assert/assume: the switch is stopped, as bmv2's process would be. */
    private P4AbortException aborted;

    public record OutPacket(int port, byte[] frame) {
        @Override
        public String toString() {
            return "OutPacket[port=" + port + ", " + frame.length + " bytes]";
        }
    }

    public P4Switch(CompiledProgram prog, SwitchConfig config) {
        this.config = config;
        this.prog = prog;
        this.pipeline = new V1ModelPipeline(prog, config);
        this.control = new InProcessControl(prog, pipeline, frame -> {
            if (config.cpuPort() < 0) {
                throw new dev.innet.switchapi.ControlException("this switch has no CPU port for packet-out");
            }
            pipeline.process(config.cpuPort(), frame, 0, frame.length, currentSink);
        });
    }

    /**
     * Processes a frame received on {@code port}; packets leaving the switch go to {@code sink}.
     *
     * @throws P4AbortException when an {@code assert}/{@code assume} fails, and for every packet after
     *     that: bmv2 aborts its process there, so this switch stops too
     */
    public void process(int port, byte[] frame, int off, int len, PacketSink sink) {
        if (aborted != null) {
            throw new P4AbortException("the switch stopped earlier: " + aborted.getMessage());
        }
        try {
            pipeline.process(port, frame, off, len, sink);
        } catch (P4AbortException e) {
            aborted = e;
            throw e;
        }
    }

    /** Convenience form that copies the output packets. */
    public List<OutPacket> process(int port, byte[] frame) {
        List<OutPacket> out = new ArrayList<>();
        process(port, frame, 0, frame.length,
                (p, buf, off, len) -> out.add(new OutPacket(p, Arrays.copyOfRange(buf, off, off + len))));
        return out;
    }

    /**
     * Sets the parameters of a crc16_custom/crc32_custom calculation (bmv2's set_crc16_parameters /
     * set_crc32_parameters); {@link #customCrcs} lists their names.
     */
    public void setCrcParameters(String calculation, int width, long polynomial, long initialRemainder, long finalXor,
                                 boolean reflectData, boolean reflectRemainder) {
        dev.innet.p4sim.runtime.CustomCrc crc = prog.arch().customCrcs.get(calculation);
        if (crc == null) {
            throw new dev.innet.switchapi.ControlException("unknown custom CRC calculation '" + calculation
                    + "' (calculations: " + prog.arch().customCrcs.keySet() + ")");
        }
        if (crc.width != width) {
            throw new dev.innet.switchapi.ControlException("calculation " + calculation + " is crc" + crc.width
                    + "_custom, not crc" + width + "_custom");
        }
        crc.configure(polynomial, initialRemainder, finalXor, reflectData, reflectRemainder);
    }

    /** The program's crc16_custom/crc32_custom calculations by name, with their current parameters. */
    public java.util.Map<String, dev.innet.p4sim.runtime.CustomCrc> customCrcs() {
        return java.util.Collections.unmodifiableMap(prog.arch().customCrcs);
    }

    /** The failed assert/assume that stopped this switch, or null while it runs. */
    public P4AbortException aborted() {
        return aborted;
    }

    /**
     * Where the outputs of {@code control().packetOut(...)} go: a live switch points this at its
     * interfaces, a simulator at its network.
     */
    public void setPacketOutSink(PacketSink sink) {
        currentSink = sink;
    }

    /** Sends a frame as if from the controller on the CPU port; its outputs go to {@code sink}. */
    public void packetOut(byte[] frame, PacketSink sink) {
        PacketSink prev = currentSink;
        currentSink = sink;
        try {
            control.packetOut(frame);
        } finally {
            currentSink = prev;
        }
    }

    /** Introspection of a table's key fields and actions (tools such as the STF runner and the CLI use it). */
    /** Every table of the program (each once, under its qualified name). */
    public java.util.Collection<dev.innet.p4sim.runtime.TableRuntime> tables() {
        return new java.util.LinkedHashSet<>(prog.tables().values());
    }

    public dev.innet.p4sim.runtime.TableRuntime tableRuntime(String name) {
        dev.innet.p4sim.runtime.TableRuntime t = prog.tables().get(name);
        if (t == null) {
            throw new dev.innet.switchapi.ControlException("unknown table '" + name + "' (tables: " + prog.tables().keySet() + ")");
        }
        return t;
    }

    /**
     * How often each table hit and missed, each action ran and each branch outcome happened since
     * this switch started, as an immutable snapshot.
     *
     * @throws IllegalStateException if the switch was instantiated without {@link SwitchConfig#withCoverage}
     */
    public Coverage coverage() {
        return coverageRecorder().snapshot();
    }

    /**
     * Snapshots of this switch's coverage whenever asked, through a supplier that holds the counters but
     * not the switch (a suite keeps one per switch it ran without keeping the switches' registers alive).
     */
    public Supplier<Coverage> coverageSource() {
        CoverageRecorder r = coverageRecorder();
        return r::snapshot;
    }

    /**
     * The memories the program places register arrays in with {@code @innet_memory("NAME")}, and which
     * of them the packets since the last {@link dev.innet.p4sim.runtime.MemoryAccesses#clear} touched
     * (a simulator's timing model reads them; p4sim gives memories no timing of its own).
     */
    public dev.innet.p4sim.runtime.MemoryAccesses memoryAccesses() {
        return prog.memories();
    }

    private CoverageRecorder coverageRecorder() {
        if (prog.coverage() == null) {
            throw new IllegalStateException("this switch counts no coverage: instantiate it with SwitchConfig.withCoverage(true)");
        }
        return prog.coverage();
    }

    public CompiledProgram program() {
        return prog;
    }

    public SwitchControl control() {
        return control;
    }

    public SwitchStats stats() {
        return pipeline.stats;
    }

    public SwitchConfig config() {
        return config;
    }
}
