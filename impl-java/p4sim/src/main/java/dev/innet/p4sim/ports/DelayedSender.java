package dev.innet.p4sim.ports;

import java.io.IOException;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends frames that {@link PortFaults} holds back, when their time comes: one thread, one queue ordered
 * by send time (ties in the order they were queued, so two copies of a duplicated frame leave in order).
 */
final class DelayedSender implements AutoCloseable {
    private record Pending(long dueNanos, long seq, FrameSender port, byte[] frame) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            Pending p = (Pending) o;
            return dueNanos != p.dueNanos ? Long.compare(dueNanos, p.dueNanos) : Long.compare(seq, p.seq);
        }
    }

    private final DelayQueue<Pending> queue = new DelayQueue<>();
    private final AtomicLong seq = new AtomicLong();
    private final Runnable onSendError;
    private final Thread sender;

    DelayedSender(Runnable onSendError) {
        this.onSendError = onSendError;
        this.sender = Thread.ofPlatform().daemon().name("p4sim-delayed-tx").start(this::run);
    }

    void later(long delayNanos, FrameSender port, byte[] frame) {
        queue.add(new Pending(System.nanoTime() + delayNanos, seq.incrementAndGet(), port, frame));
    }

    private void run() {
        try {
            while (true) {
                Pending p = queue.take();
                try {
                    p.port().send(p.frame(), 0, p.frame().length);
                } catch (IOException e) {
                    onSendError.run();
                }
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    @Override
    public void close() {
        sender.interrupt();
    }
}
