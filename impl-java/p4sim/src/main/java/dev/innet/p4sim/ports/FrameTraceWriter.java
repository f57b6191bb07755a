package dev.innet.p4sim.ports;

import dev.innet.sim.SwitchFrameEvents;
import dev.innet.sim.TraceEvent;
import dev.innet.sim.simulated.Simulation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * p4sim's {@code --trace-frames}: on a live rack, the switch's own trace events, the lines the simulated
 * rack records (rack's SwitchFrameTrace, through the shared {@link SwitchFrameEvents}): a {@code switchIn}
 * for each client message the pipeline processes and a {@code switchOut} for each frame it emits to a
 * client, as the environment (host 0, incarnation 0). Trace validation places the spec's client steps
 * there (docs/conformance.md, "Trace validation"); without them it would have to guess from the clients'
 * send times, which a live rack's veth links and port threads do not keep in order.
 *
 * <p>Each line is stamped with {@code clock} (the machine's monotonic clock, {@code System.nanoTime}, which
 * every host process of the rack also stamps its events with) when the pipeline reaches the frame, and
 * written and flushed at once ({@link LiveSwitch.FrameObserver}: under the switch lock, before any output
 * leaves): a kill -9 loses no line already stamped, and no host can stamp a reaction to a frame earlier
 * than the switch stamped the frame. It also writes a {@code switchControl} line for each control-plane
 * write applied through the CLI port (under the same lock), so that the rack's merge can place a controller's
 * step where it took effect.
 */
public final class FrameTraceWriter implements LiveSwitch.FrameObserver, dev.innet.p4sim.cli.ControlServer.WriteObserver,
        AutoCloseable {
    /**
     * The event of a control-plane write that took effect ({@link dev.innet.p4sim.cli.ControlServer.WriteObserver}):
     * when a controller's step really changed the switch. A controller stamps its own event only after its
     * control calls return, and the switch may process frames in between; the rack's merge
     * (TraceEventsMerge) moves the controller's event back to its last write and drops these lines.
     */
    public static final String SWITCH_CONTROL_EVENT = "switchControl";

    /** What the lines describe and where they go ({@code --trace-udp-frames}, {@code --trace-switch}). */
    public record Options(List<Integer> clients, boolean udpFrames, String switchName) {
        /** The innet messages of {@code clients}, on a one-switch rack: switchIn/switchOut. */
        public static Options innet(List<Integer> clients) {
            return new Options(clients, false, null);
        }
    }

    private final SwitchFrameEvents events;
    private final boolean udpFrames;
    private final String switchName;
    private final PrintStream out;
    private final LongSupplier clock;
    private final PrintStream log;
    private boolean failureReported;
    /** UDP frames: the stamp of the frame being processed, which the frames it sends share. */
    private long stepStamp;

    /**
     * @param out   where the lines go; flushed after each line
     * @param clock the stamp of each line
     * @param log   where a failed write is reported (once)
     */
    public FrameTraceWriter(PrintStream out, List<Integer> clients, LongSupplier clock, PrintStream log) {
        this(out, Options.innet(clients), clock, log);
    }

    /**
     * @param options {@link Options#udpFrames}: every UDP frame between rack hosts ({@code switchUdpIn} for each frame
     *                the pipeline processes, then a {@code switchUdpOut} for each it sends in that step, stamped with
     *                the step's stamp, so that a time-ordered merge keeps a step's lines together as the simulator
     *                writes them: tracecheck's SwitchUdpSteps); {@link Options#switchName}: written as field
     *                {@code switch} of every frame event (a network of several switches), or null
     */
    public FrameTraceWriter(PrintStream out, Options options, LongSupplier clock, PrintStream log) {
        this.events = new SwitchFrameEvents(options.clients(), options.udpFrames());
        this.udpFrames = options.udpFrames();
        this.switchName = options.switchName();
        this.out = out;
        this.clock = clock;
        this.log = log;
    }

    /** Appends to {@code file} (a restarted switch adds to its predecessor's lines), stamped with System.nanoTime. */
    public static FrameTraceWriter appendingTo(Path file, List<Integer> clients, PrintStream log) throws IOException {
        return appendingTo(file, Options.innet(clients), log);
    }

    /**
     * Appends to {@code file}, stamped with System.nanoTime. A file that already holds lines is a predecessor's:
     * this switch is a restart of one that died (a rack clears the file when it comes up; {@code rack restart}
     * starts the switch again with the same file), so the first line written is the simulator's
     * {@code switchCrash}, as a simulated rack records a switch crash: everything the dead switch held (registers,
     * tables, frames in its buffers) is gone. Stamped now, before this switch processes a frame or a control
     * command: the frames sent to the dead switch in between were lost, which the spec's crash (it empties the
     * network) covers, and the controller's reaction to the new switch comes after it.
     */
    public static FrameTraceWriter appendingTo(Path file, Options options, PrintStream log) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        boolean restart = Files.exists(file) && Files.size(file) > 0;
        PrintStream out = new PrintStream(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND),
                false, StandardCharsets.UTF_8);
        FrameTraceWriter writer = new FrameTraceWriter(out, options, System::nanoTime, log);
        if (restart) {
            writer.crashed();
        }
        return writer;
    }

    /** Records that this switch replaces one that died: {@code switchCrash} (field {@code switch} if it is named). */
    void crashed() {
        write(named(TraceEvent.of(Simulation.SWITCH_CRASH_EVENT)), clock.getAsLong());
    }

    @Override
    public void received(int port, byte[] buf, int off, int len) {
        stepStamp = clock.getAsLong();
        events.received(Arrays.copyOfRange(buf, off, off + len)).ifPresent(e -> write(named(e), stepStamp));
    }

    @Override
    public void emitted(int port, byte[] buf, int off, int len) {
        // an innet reply keeps its own stamp (taken before it leaves); a UDP step's frames share the input's
        events.sent(Arrays.copyOfRange(buf, off, off + len))
                .ifPresent(e -> write(named(e), udpFrames ? stepStamp : clock.getAsLong()));
    }

    @Override
    public void applied(String command) {
        write(TraceEvent.of(SWITCH_CONTROL_EVENT).with("command", command.strip().split("\\s+", 2)[0]), clock.getAsLong());
    }

    private TraceEvent named(TraceEvent e) {
        return switchName == null ? e : e.with("switch", switchName);
    }

    private void write(TraceEvent e, long stamp) {
        out.println(e.toJsonLine(stamp, Simulation.ENVIRONMENT_HOST, 0));
        out.flush();
        if (out.checkError() && !failureReported) {
            failureReported = true;
            log.println("p4sim: writing --trace-frames failed; later frames may be missing from the trace");
        }
    }

    @Override
    public void close() {
        out.close();
    }
}
