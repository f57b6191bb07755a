package dev.innet.live;

import dev.innet.sim.live.LiveHost;
import dev.innet.switchapi.SwitchControl;
import dev.innet.switchapi.SwitchHandle;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * The controller's view of the switch's life, at the edge of the controller process: it holds an idle
 * connection to the switch's control port (p4sim's CLI port, or bmv2's Thrift port), which the kernel closes
 * when the switch dies, and then detaches the switch handle (as the simulated rack does at a switch crash),
 * waits until a switch answers on the port again, and attaches a new control from its {@link Connector}
 * (p4sim: {@code RemoteSwitchControl}; bmv2: {@code Bmv2CliControl}) to the handle. The handle's generation changes, so
 * the controller programs the new, empty switch and runs the protocol's recovery (FarReach's
 * sequence-number base, NetCache's cache relearned), as in the simulator. Detach and attach run on the
 * host's event loop ({@link LiveHost#call}), never beside a handler.
 */
final class SwitchWatch {
    private static final long RETRY_MILLIS = 100;

    private final LiveHost live;
    private final SwitchHandle handle;
    /** What the log lines call the switch ("the switch", or its name in a network of several). */
    private final String label;
    private final int port;
    private final Connector connector;
    private volatile SwitchControl current;

    /** Opens a new control of the switch on the watched port; an IOException while none answers yet. */
    interface Connector {
        SwitchControl connect() throws IOException;
    }

    private SwitchWatch(LiveHost live, SwitchHandle handle, String label, int port, SwitchControl first, Connector connector) {
        this.live = live;
        this.handle = handle;
        this.label = label;
        this.port = port;
        this.current = first;
        this.connector = connector;
    }

    /** Starts watching the switch whose control {@code first} is attached to {@code handle} now. */
    static void start(LiveHost live, SwitchHandle handle, String label, int port, SwitchControl first, Connector connector) {
        SwitchWatch w = new SwitchWatch(live, handle, label, port, first, connector);
        Thread.ofPlatform().daemon().name("innet-switch-watch-" + port).start(w::watch);
    }

    private void watch() {
        try {
            Socket monitor = connect();
            while (true) {
                awaitClose(monitor);
                System.out.println("innet-host: lost the control port of " + label + ": detaching it");
                onLoop(handle::detach);
                closeQuietly(current);
                // the next switch: wait until one listens, then give the controller a new handle generation
                monitor = connect();
                SwitchControl control = connectControl();
                current = control;
                onLoop(() -> handle.attach(control));
                System.out.println("innet-host: " + label + " answers again: attached (generation " + handle.generation() + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Socket connect() throws InterruptedException {
        while (true) {
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (IOException e) {
                Thread.sleep(RETRY_MILLIS);
            }
        }
    }

    private SwitchControl connectControl() throws InterruptedException {
        while (true) {
            try {
                return connector.connect();
            } catch (IOException e) {
                Thread.sleep(RETRY_MILLIS);
            }
        }
    }

    /** The server never writes on this connection: a read returns only when the switch process is gone. */
    private static void awaitClose(Socket s) {
        try (s; InputStream in = s.getInputStream()) {
            while (in.read() >= 0) {
                // nothing is ever sent; ignore
            }
        } catch (IOException e) {
            // reset by a dying peer: the same news
        }
    }

    private void onLoop(Runnable r) throws InterruptedException {
        try {
            live.call(node -> {
                r.run();
                return null;
            }).get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            System.out.println("innet-host: switch watch could not reach the event loop: " + e);
        }
    }

    private static void closeQuietly(SwitchControl c) {
        try {
            if (c instanceof AutoCloseable closeable) {
                closeable.close();
            }
        } catch (Exception e) {
            // it is dead already
        }
    }
}
