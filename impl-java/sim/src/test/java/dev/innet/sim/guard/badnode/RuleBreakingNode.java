package dev.innet.sim.guard.badnode;

import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;

import java.net.DatagramSocket;
import java.net.SocketException;
import java.util.concurrent.ThreadLocalRandom;

/** Breaks every rule the scanner knows; never run, only scanned. */
public final class RuleBreakingNode implements Node {
    private long started;

    @Override
    public void onStart(NodeContext ctx) {
        started = System.nanoTime();
        Runnable later = () -> started += System.currentTimeMillis();
        later.run();
    }

    @Override
    public void onPacket(byte[] frame) {
        try (DatagramSocket socket = new DatagramSocket()) {
            socket.getLocalPort();
        } catch (SocketException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void onTimer(long timerId) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextInt(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
