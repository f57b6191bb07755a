package dev.innet.conformance;

import dev.innet.p4runtime.P4RuntimeServer;
import dev.innet.p4runtime.P4RuntimeSwitchControl;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.protocol.spec.ReplayTarget;
import dev.innet.switchapi.SwitchControl;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The p4sim replay target with its control plane over P4Runtime ({@code ./innet conform --switch-api p4runtime}):
 * frames go straight into the in-process switch, as with {@link P4simReplayTarget}, but every table, register
 * and counter operation of the replay goes through {@link P4RuntimeSwitchControl} to a P4Runtime server on
 * loopback serving that same switch. A replay that passes on both targets shows that the P4Runtime path gives
 * the controller the same switch state as the direct API. A crash replaces the switch and its server (and the
 * client, which must win arbitration again), as a real switch reboot would.
 */
public final class P4RuntimeReplayTarget implements ReplayTarget, AutoCloseable {
    /** The device id the server answers to and the client's election id: one controller, one device. */
    private static final long DEVICE_ID = 1;
    private static final long ELECTION_ID = 1;

    private final P4simReplayTarget direct;
    private final P4Sim.Program program;
    private final byte[] source;
    private final List<P4RuntimeReplayTarget> others = new ArrayList<>();
    private P4RuntimeServer server;
    private P4RuntimeSwitchControl control;

    private P4RuntimeReplayTarget(P4simReplayTarget direct, P4Sim.Program program, byte[] source) {
        this.direct = direct;
        this.program = program;
        this.source = source;
        serve();
    }

    /** Fresh targets of {@code program}, compiled once; each switch counts its coverage into {@code coverage} (null: none). */
    public static Supplier<ReplayTarget> factory(Path repositoryRoot, Path program, long seed, P4Coverage coverage) {
        P4Sim.Program compiled = P4Sim.compile(program, List.of(repositoryRoot.resolve("p4")));
        byte[] source;
        try {
            source = Files.readAllBytes(program);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + program, e);
        }
        return () -> new P4RuntimeReplayTarget(new P4simReplayTarget(compiled, seed, coverage), compiled, source);
    }

    private void serve() {
        P4Switch sw = p4Switch();
        try {
            // the switch object is the lock: the server's calls and this target's frames never interleave
            server = P4RuntimeServer.start("127.0.0.1", 0, DEVICE_ID, program, source, sw, sw);
        } catch (IOException e) {
            throw new UncheckedIOException("starting the P4Runtime server of the replay switch", e);
        }
        try {
            control = new P4RuntimeSwitchControl("127.0.0.1", server.port(), DEVICE_ID, ELECTION_ID);
        } catch (RuntimeException e) {
            stopServing();
            throw e;
        }
    }

    private void stopServing() {
        if (control != null) {
            control.close();
            control = null;
        }
        try {
            server.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The switch served now (a crash replaces it). */
    P4Switch p4Switch() {
        return direct.p4Switch();
    }

    @Override
    public List<Emitted> inject(int port, byte[] frame) {
        P4Switch sw = p4Switch();
        synchronized (sw) {
            return direct.inject(port, frame);
        }
    }

    @Override
    public SwitchControl control() {
        return control;
    }

    @Override
    public void crash() {
        stopServing();
        direct.crash();
        serve();
    }

    @Override
    public ReplayTarget another() {
        P4RuntimeReplayTarget other = new P4RuntimeReplayTarget((P4simReplayTarget) direct.another(), program, source);
        others.add(other);
        return other;
    }

    /** Stops this switch's server and client, and those of the other switches made by {@link #another()}. */
    @Override
    public void close() {
        others.forEach(P4RuntimeReplayTarget::close);
        others.clear();
        stopServing();
    }
}
