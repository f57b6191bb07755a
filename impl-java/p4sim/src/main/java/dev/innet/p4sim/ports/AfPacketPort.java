package dev.innet.p4sim.ports;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * A Linux network interface as a switch port: a raw {@code AF_PACKET} socket bound to the interface,
 * through the FFM API (no JNI, no native library of our own). Needs CAP_NET_RAW. Frames the socket
 * sees leaving the interface (our own transmissions) are skipped on receive.
 */
public final class AfPacketPort implements FrameSender, AutoCloseable {
    private static final int AF_PACKET = 17;
    private static final int SOCK_RAW = 3;
    private static final int ETH_P_ALL = 0x0003;
    private static final int PACKET_OUTGOING = 4;
    private static final int SOL_SOCKET = 1;
    private static final int SO_RCVTIMEO = 20;
    private static final int EAGAIN = 11;
    private static final int EINTR = 4;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle SOCKET = fn("socket", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle BIND = fn("bind", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle RECVFROM = fn("recvfrom", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle SEND = fn("send", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle SETSOCKOPT = fn("setsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = fn("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    private static final MethodHandle IF_NAMETOINDEX = fn("if_nametoindex", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS));

    @SuppressWarnings("restricted") // native access is this class's job; run with --enable-native-access
    private static MethodHandle fn(String name, FunctionDescriptor d) {
        MemorySegment sym = LIBC.find(name).orElseThrow(() -> new IllegalStateException("libc has no " + name));
        return LINKER.downcallHandle(sym, d, CAPTURE_ERRNO);
    }

    private final String ifname;
    private final int fd;
    private final Arena arena = Arena.ofShared();
    /** errno capture areas: one per thread role (receive thread, senders under txLock, setup). */
    private final MemorySegment state = arena.allocate(CALL_STATE);
    private final MemorySegment rxState = arena.allocate(CALL_STATE);
    private final MemorySegment txState = arena.allocate(CALL_STATE);
    private final MemorySegment rxBuf;
    private final MemorySegment txBuf;
    private final MemorySegment from = arena.allocate(20);
    private final MemorySegment fromLen = arena.allocate(ValueLayout.JAVA_INT);
    private final Object txLock = new Object();
    private volatile boolean closed;

    public AfPacketPort(String ifname, int maxFrame) throws IOException {
        this.ifname = ifname;
        this.rxBuf = arena.allocate(maxFrame);
        this.txBuf = arena.allocate(maxFrame);
        try {
            int index = (int) IF_NAMETOINDEX.invokeExact(state, arena.allocateFrom(ifname));
            if (index == 0) {
                throw new IOException("no network interface '" + ifname + "' (errno " + errno() + ")");
            }
            int s = (int) SOCKET.invokeExact(state, AF_PACKET, SOCK_RAW, (int) Short.reverseBytes((short) ETH_P_ALL) & 0xFFFF);
            if (s < 0) {
                throw new IOException("socket(AF_PACKET) failed, errno " + errno() + " (needs CAP_NET_RAW)");
            }
            MemorySegment sll = arena.allocate(20);
            sll.set(ValueLayout.JAVA_SHORT, 0, (short) AF_PACKET);
            sll.set(ValueLayout.JAVA_SHORT, 2, Short.reverseBytes((short) ETH_P_ALL));
            sll.set(ValueLayout.JAVA_INT, 4, index);
            if ((int) BIND.invokeExact(state, s, sll, 20) != 0) {
                int err = errno();
                int ignored = (int) CLOSE.invokeExact(state, s);
                throw new IOException("bind to " + ifname + " failed, errno " + err);
            }
            // a receive timeout lets reader threads notice close()
            MemorySegment tv = arena.allocate(16);
            tv.set(ValueLayout.JAVA_LONG, 0, 0L);
            tv.set(ValueLayout.JAVA_LONG, 8, 200_000L);
            int rc = (int) SETSOCKOPT.invokeExact(state, s, SOL_SOCKET, SO_RCVTIMEO, tv, 16);
            if (rc != 0) {
                throw new IOException("setsockopt(SO_RCVTIMEO) failed, errno " + errno());
            }
            this.fd = s;
        } catch (IOException e) {
            arena.close();
            throw e;
        } catch (Throwable t) {
            arena.close();
            throw new IOException("AF_PACKET setup for " + ifname + " failed", t);
        }
    }

    private int errno() {
        return errno(state);
    }

    private static int errno(MemorySegment captured) {
        return (int) ERRNO.get(captured, 0L);
    }

    public String name() {
        return ifname;
    }

    /**
     * Waits for the next frame arriving on the interface and copies it into {@code buf}; returns its
     * length, or -1 once the port is closed.
     */
    public int receive(byte[] buf) throws IOException {
        while (!closed) {
            long n;
            try {
                fromLen.set(ValueLayout.JAVA_INT, 0, 20);
                n = (long) RECVFROM.invokeExact(rxState, fd, rxBuf, rxBuf.byteSize(), 0, from, fromLen);
            } catch (Throwable t) {
                throw new IOException("recvfrom on " + ifname, t);
            }
            if (n < 0) {
                int err = errno(rxState);
                if (err == EAGAIN || err == EINTR) {
                    continue;
                }
                if (closed) {
                    return -1;
                }
                throw new IOException("recvfrom on " + ifname + " failed, errno " + err);
            }
            if ((from.get(ValueLayout.JAVA_BYTE, 10) & 0xFF) == PACKET_OUTGOING) {
                continue;
            }
            int len = (int) Math.min(n, buf.length);
            MemorySegment.copy(rxBuf, ValueLayout.JAVA_BYTE, 0, buf, 0, len);
            return len;
        }
        return -1;
    }

    @Override
    public void send(byte[] buf, int off, int len) throws IOException {
        synchronized (txLock) {
            if (closed) {
                return;
            }
            MemorySegment.copy(buf, off, txBuf, ValueLayout.JAVA_BYTE, 0, len);
            long n;
            try {
                n = (long) SEND.invokeExact(txState, fd, txBuf, (long) len, 0);
            } catch (Throwable t) {
                throw new IOException("send on " + ifname, t);
            }
            if (n < 0) {
                throw new IOException("send on " + ifname + " failed, errno " + errno(txState));
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (txLock) {
            try {
                int ignored = (int) CLOSE.invokeExact(state, fd);
            } catch (Throwable t) {
                // closing is best effort
            }
        }
    }
}
