package dev.innet.live;

import dev.innet.p4sim.cli.RemoteSwitchControl;
import dev.innet.sim.live.LiveHost;
import dev.innet.switchapi.SwitchHandle;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

/**
 * The controller's view of the switch's life, at the edge of the controller process: it holds an idle
 * connection to p4sim's control port, which the kernel closes when p4sim dies, and then detaches the
 * switch handle (as the simulated rack does at a switch crash), waits until a switch answers on the port
 * again, and attaches a new {@link RemoteSwitchControl} to the handle. The handle's generation changes, so
 * the controller programs the new, empty switch and runs the protocol's recovery (FarReach's
 * sequence-number base, NetCache's cache relearned), as in the simulator. Detach and attach run on the
 * host's event loop ({@link LiveHost#call}), never beside a handler.
 */
final class SwitchWatch {
    private static final long RETRY_MILLIS = 100;

    private final LiveHost live;
    private final SwitchHandle handle;
    private final int port;
    private volatile RemoteSwitchControl current;

    private SwitchWatch(LiveHost live, SwitchHandle handle, int port, RemoteSwitchControl first) {
        this.live = live;
        this.handle = handle;
        this.port = port;
        this.current = first;
    }

    /** Starts watching the switch whose control {@code first} is attached to {@code handle} now. */
    static void start(LiveHost live, SwitchHandle handle, int port, RemoteSwitchControl first) {
        SwitchWatch w = new SwitchWatch(live, handle, port, first);
        Thread.ofPlatform().daemon().name("innet-switch-watch").start(w::watch);
    }

    private void watch() {
        try {
            Socket monitor = connect();
            while (true) {
                awaitClose(monitor);
                System.out.println("innet-host: lost the switch's control port: detaching the switch");
                onLoop(handle::detach);
                closeQuietly(current);
                // the next switch: wait until one listens, then give the controller a new handle generation
                monitor = connect();
                RemoteSwitchControl control = connectControl();
                current = control;
                onLoop(() -> handle.attach(control));
                System.out.println("innet-host: a switch answers again: attached (generation " + handle.generation() + ")");
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

    private RemoteSwitchControl connectControl() throws InterruptedException {
        while (true) {
            try {
                return new RemoteSwitchControl(port);
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

    private static void closeQuietly(RemoteSwitchControl c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException e) {
            // it is dead already
        }
    }
}
