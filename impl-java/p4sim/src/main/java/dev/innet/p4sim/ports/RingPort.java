package dev.innet.p4sim.ports;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A Linux network interface through memory-mapped {@code AF_PACKET} rings (PACKET_MMAP), through the
 * FFM API: a receive socket with a {@code TPACKET_V3} ring (the kernel fills blocks of frames and hands
 * over a whole block at a time) and a transmit socket with a {@code TPACKET_V2} ring (frames are written
 * into the ring and one {@code send} pushes out every frame queued since the last one). Receiving and
 * transmitting a batch therefore costs no system call per frame and no allocation.
 *
 * <p>Threads: one thread drains the receive ring ({@link #drain}); transmission ({@link #enqueue},
 * {@link #flush}, {@link #send}) is serialised by a lock, so a second sender (the port-fault delayed
 * sender) may share the port. Close only after the receiving thread stopped using the port; the
 * rings are unmapped by closing a shared arena, so a late access fails with an exception, never a crash.
 *
 * <p>Receive latency: a V3 block is handed over when it is full or when the kernel's block timer
 * ({@link Geometry#retireMillis}) retires it, so at low rates a frame waits up to that long.
 */
public final class RingPort implements FrameSender, AutoCloseable {
    /**
     * Ring sizes. Receive: {@code rxBlocks} blocks of {@code rxBlockBytes} (a multiple of the page
     * size, large enough for the largest frame). Transmit: {@code txFrames} slots of
     * {@code txFrameBytes} (a power of two; a frame may be {@code txFrameBytes - 32} bytes).
     */
    public record Geometry(int rxBlockBytes, int rxBlocks, int txFrameBytes, int txFrames, int retireMillis) {
        /** 2 MiB of receive blocks and 128 transmit slots: enough to ride out a few ms of scheduling delay at 400k frames/s. */
        public static Geometry forMaxFrame(int maxFrame) {
            int tx = Integer.highestOneBit(Math.max(2048, maxFrame + TX_DATA_OFFSET) - 1) << 1;
            int block = Math.max(32 * 1024, Integer.highestOneBit(maxFrame + 256 - 1) << 1);
            return new Geometry(block, Math.max(4, (2 << 20) / block), tx, 128, 1);
        }

        /** The same with {@code factor} times the blocks and transmit slots (a benchmark's traffic generator). */
        public Geometry scaled(int factor) {
            return new Geometry(rxBlockBytes, rxBlocks * factor, txFrameBytes, txFrames * factor, retireMillis);
        }
    }

    /** Gets the frames of a drained block: {@code ring[offset, offset+length)} is valid only during the call. */
    @FunctionalInterface
    public interface Receiver {
        void frame(MemorySegment ring, long offset, int length);
    }

    /** The rings could not be set up on this kernel or interface; the caller may fall back to plain sockets. */
    public static final class RingsUnavailable extends IOException {
        RingsUnavailable(String message) {
            super(message);
        }
    }

    private static final int PAGE = 4096;
    // struct tpacket_block_desc (TPACKET_V3): version, offset_to_priv, then tpacket_hdr_v1
    private static final long BLOCK_STATUS = 8;
    private static final long BLOCK_NUM_PKTS = 12;
    private static final long BLOCK_FIRST_PKT = 16;
    // struct tpacket3_hdr, then struct sockaddr_ll at TPACKET_ALIGN(sizeof(tpacket3_hdr)) = 48
    private static final long P3_NEXT = 0;
    private static final long P3_SNAPLEN = 12;
    private static final long P3_LEN = 16;
    private static final long P3_MAC = 24;
    private static final long P3_PKTTYPE = 48 + 10;
    // struct tpacket2_hdr; transmitted data starts at TPACKET2_HDRLEN - sizeof(sockaddr_ll) = 32
    private static final long P2_STATUS = 0;
    private static final long P2_LEN = 4;
    static final int TX_DATA_OFFSET = 32;
    private static final int TP_STATUS_KERNEL = 0;
    private static final int TP_STATUS_USER = 1;
    private static final int TP_STATUS_AVAILABLE = 0;
    private static final int TP_STATUS_SEND_REQUEST = 1;
    private static final int SPINS_BEFORE_POLL = 200;

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final String ifname;
    private final Geometry g;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment setupState = arena.allocate(Libc.STATE);
    private final MemorySegment rxState = arena.allocate(Libc.STATE);
    private final MemorySegment txState = arena.allocate(Libc.STATE);
    private final MemorySegment txPoll = arena.allocate(8);
    private final MemorySegment statsBuf = arena.allocate(12);
    private final MemorySegment statsLen = arena.allocate(ValueLayout.JAVA_INT);
    private final int rxFd;
    private final int txFd;
    private final MemorySegment rx;
    private final MemorySegment tx;
    private final boolean kernelSkipsOutgoing;
    private final Object txLock = new Object();
    private int rxBlock;
    private int txSlot;
    private int txQueued;
    private long oversize;
    private long truncated;
    private volatile boolean closed;

    public RingPort(String ifname, Geometry g) throws IOException {
        this.ifname = ifname;
        this.g = g;
        int rfd = -1;
        int tfd = -1;
        try {
            int index = (int) Libc.IF_NAMETOINDEX.invokeExact(setupState, arena.allocateFrom(ifname));
            if (index == 0) {
                throw new IOException("no network interface '" + ifname + "' (errno " + Libc.errno(setupState) + ")");
            }
            int allProtocols = Short.reverseBytes((short) Libc.ETH_P_ALL) & 0xFFFF;
            rfd = socket(allProtocols);
            setInt(rfd, Libc.PACKET_VERSION, Libc.TPACKET_V3, "PACKET_VERSION TPACKET_V3");
            MemorySegment req3 = arena.allocate(28);
            int framesPerBlock = g.rxBlockBytes() / 2048;
            req3.set(ValueLayout.JAVA_INT, 0, g.rxBlockBytes());
            req3.set(ValueLayout.JAVA_INT, 4, g.rxBlocks());
            req3.set(ValueLayout.JAVA_INT, 8, 2048);
            req3.set(ValueLayout.JAVA_INT, 12, framesPerBlock * g.rxBlocks());
            req3.set(ValueLayout.JAVA_INT, 16, g.retireMillis());
            setOption(rfd, Libc.PACKET_RX_RING, req3, "PACKET_RX_RING (TPACKET_V3)");
            // the kernel then does not copy our own transmissions into the receive ring (Linux 4.20+)
            boolean skips = trySetInt(rfd, Libc.PACKET_IGNORE_OUTGOING, 1);
            bind(rfd, allProtocols, index);
            tfd = socket(0); // protocol 0: this socket receives nothing
            setInt(tfd, Libc.PACKET_VERSION, Libc.TPACKET_V2, "PACKET_VERSION TPACKET_V2");
            setInt(tfd, Libc.PACKET_LOSS, 1, "PACKET_LOSS"); // a malformed frame is skipped, not a stuck ring
            trySetInt(tfd, Libc.PACKET_QDISC_BYPASS, 1);
            int txBlock = Math.max(PAGE, g.txFrameBytes());
            MemorySegment req = arena.allocate(16);
            req.set(ValueLayout.JAVA_INT, 0, txBlock);
            req.set(ValueLayout.JAVA_INT, 4, g.txFrames() * g.txFrameBytes() / txBlock);
            req.set(ValueLayout.JAVA_INT, 8, g.txFrameBytes());
            req.set(ValueLayout.JAVA_INT, 12, g.txFrames());
            setOption(tfd, Libc.PACKET_TX_RING, req, "PACKET_TX_RING (TPACKET_V2)");
            bind(tfd, 0, index);
            this.rx = map(rfd, (long) g.rxBlockBytes() * g.rxBlocks());
            this.tx = map(tfd, (long) g.txFrameBytes() * g.txFrames());
            this.rxFd = rfd;
            this.txFd = tfd;
            this.kernelSkipsOutgoing = skips;
            txPoll.set(ValueLayout.JAVA_INT, 0, tfd);
            txPoll.set(ValueLayout.JAVA_SHORT, 4, Libc.POLLOUT);
        } catch (IOException e) {
            closeQuietly(rfd);
            closeQuietly(tfd);
            arena.close();
            throw e;
        } catch (Throwable t) {
            closeQuietly(rfd);
            closeQuietly(tfd);
            arena.close();
            throw new IOException("packet ring setup for " + ifname + " failed", t);
        }
    }

    private int socket(int protocol) throws Throwable {
        int s = (int) Libc.SOCKET.invokeExact(setupState, Libc.AF_PACKET, Libc.SOCK_RAW, protocol);
        if (s < 0) {
            throw new IOException("socket(AF_PACKET) failed, errno " + Libc.errno(setupState) + " (needs CAP_NET_RAW)");
        }
        return s;
    }

    private void bind(int fd, int protocol, int index) throws Throwable {
        MemorySegment sll = arena.allocate(20);
        sll.set(ValueLayout.JAVA_SHORT, 0, (short) Libc.AF_PACKET);
        sll.set(ValueLayout.JAVA_SHORT, 2, (short) protocol);
        sll.set(ValueLayout.JAVA_INT, 4, index);
        if ((int) Libc.BIND.invokeExact(setupState, fd, sll, 20) != 0) {
            throw new IOException("bind to " + ifname + " failed, errno " + Libc.errno(setupState));
        }
    }

    private void setInt(int fd, int option, int value, String what) throws Throwable {
        if (!trySetInt(fd, option, value)) {
            throw new RingsUnavailable("setsockopt " + what + " on " + ifname + " failed, errno " + Libc.errno(setupState));
        }
    }

    private boolean trySetInt(int fd, int option, int value) throws Throwable {
        MemorySegment v = arena.allocateFrom(ValueLayout.JAVA_INT, value);
        return (int) Libc.SETSOCKOPT.invokeExact(setupState, fd, Libc.SOL_PACKET, option, v, 4) == 0;
    }

    private void setOption(int fd, int option, MemorySegment value, String what) throws Throwable {
        if ((int) Libc.SETSOCKOPT.invokeExact(setupState, fd, Libc.SOL_PACKET, option, value, (int) value.byteSize()) != 0) {
            throw new RingsUnavailable("setsockopt " + what + " on " + ifname + " failed, errno " + Libc.errno(setupState));
        }
    }

    @SuppressWarnings("restricted") // the ring is kernel memory mapped into ours: native access is this class's job
    private MemorySegment map(int fd, long size) throws Throwable {
        MemorySegment addr = (MemorySegment) Libc.MMAP.invokeExact(setupState, MemorySegment.NULL, size,
                Libc.PROT_READ_WRITE, Libc.MAP_SHARED | Libc.MAP_POPULATE, fd, 0L);
        if (addr.address() == -1L) {
            throw new RingsUnavailable("mmap of the packet ring on " + ifname + " failed, errno " + Libc.errno(setupState));
        }
        return addr.reinterpret(size, arena, seg -> {
            try {
                int ignored = (int) Libc.MUNMAP.invokeExact(setupState, seg, size);
            } catch (Throwable t) {
                // unmapping at close is best effort
            }
        });
    }

    private void closeQuietly(int fd) {
        if (fd >= 0) {
            try {
                int ignored = (int) Libc.CLOSE.invokeExact(setupState, fd);
            } catch (Throwable t) {
                // best effort
            }
        }
    }

    public String name() {
        return ifname;
    }

    /** The receive socket, for {@link RingPoller}. */
    int receiveFd() {
        return rxFd;
    }

    /**
     * Hands every frame of up to {@code maxBlocks} filled blocks to {@code r}, in arrival order, and
     * gives the blocks back to the kernel; returns the number of frames. Never blocks.
     */
    public int drain(Receiver r, int maxBlocks) {
        int frames = 0;
        for (int b = 0; b < maxBlocks; b++) {
            long block = (long) rxBlock * g.rxBlockBytes();
            if (((int) INT.getAcquire(rx, block + BLOCK_STATUS) & TP_STATUS_USER) == 0) {
                break;
            }
            int n = rx.get(ValueLayout.JAVA_INT, block + BLOCK_NUM_PKTS);
            long p = block + rx.get(ValueLayout.JAVA_INT, block + BLOCK_FIRST_PKT);
            for (int k = 0; k < n; k++) {
                if (kernelSkipsOutgoing || rx.get(ValueLayout.JAVA_BYTE, p + P3_PKTTYPE) != Libc.PACKET_OUTGOING) {
                    int snap = rx.get(ValueLayout.JAVA_INT, p + P3_SNAPLEN);
                    if (snap < rx.get(ValueLayout.JAVA_INT, p + P3_LEN)) {
                        truncated++; // larger than a block can hold: never process part of a frame
                    } else {
                        int mac = rx.get(ValueLayout.JAVA_SHORT, p + P3_MAC) & 0xFFFF;
                        r.frame(rx, p + mac, snap);
                        frames++;
                    }
                }
                p += rx.get(ValueLayout.JAVA_INT, p + P3_NEXT);
            }
            INT.setRelease(rx, block + BLOCK_STATUS, TP_STATUS_KERNEL);
            rxBlock = rxBlock + 1 == g.rxBlocks() ? 0 : rxBlock + 1;
        }
        return frames;
    }

    /**
     * Queues a frame in the transmit ring; it leaves at the next {@link #flush}. Waits for a free slot
     * if the ring is full (flushing first). A frame larger than a slot is counted ({@link #oversize}) and dropped.
     */
    public void enqueue(byte[] buf, int off, int len) throws IOException {
        synchronized (txLock) {
            if (closed) {
                return;
            }
            if (len > g.txFrameBytes() - TX_DATA_OFFSET) {
                oversize++;
                return;
            }
            long slot = (long) txSlot * g.txFrameBytes();
            if ((int) INT.getAcquire(tx, slot + P2_STATUS) != TP_STATUS_AVAILABLE) {
                awaitSlot(slot);
            }
            MemorySegment.copy(buf, off, tx, ValueLayout.JAVA_BYTE, slot + TX_DATA_OFFSET, len);
            tx.set(ValueLayout.JAVA_INT, slot + P2_LEN, len);
            INT.setRelease(tx, slot + P2_STATUS, TP_STATUS_SEND_REQUEST);
            txSlot = txSlot + 1 == g.txFrames() ? 0 : txSlot + 1;
            txQueued++;
        }
    }

    /** Transmits every queued frame with one system call (none if nothing is queued). */
    public void flush() throws IOException {
        synchronized (txLock) {
            if (txQueued == 0 || closed) {
                return;
            }
            long n;
            try {
                n = (long) Libc.SEND.invokeExact(txState, txFd, MemorySegment.NULL, 0L, Libc.MSG_DONTWAIT);
            } catch (Throwable t) {
                throw new IOException("send on " + ifname, t);
            }
            if (n < 0) {
                int err = Libc.errno(txState);
                if (err == Libc.EAGAIN || err == Libc.EINTR || err == Libc.ENOBUFS) {
                    return; // the frames stay queued for the next flush
                }
                throw new IOException("send on " + ifname + " failed, errno " + err);
            }
            txQueued = 0;
        }
    }

    /** One frame now: {@link #enqueue} and {@link #flush}. */
    @Override
    public void send(byte[] buf, int off, int len) throws IOException {
        synchronized (txLock) {
            enqueue(buf, off, len);
            flush();
        }
    }

    /** The slot is still being sent (the kernel frees it when the peer has taken the frame): push and wait. */
    private void awaitSlot(long slot) throws IOException {
        int spins = 0;
        while (!closed && (int) INT.getAcquire(tx, slot + P2_STATUS) != TP_STATUS_AVAILABLE) {
            if (txQueued > 0) {
                flush();
            }
            if (++spins < SPINS_BEFORE_POLL) {
                Thread.onSpinWait();
                continue;
            }
            try {
                int ignored = (int) Libc.POLL.invokeExact(txState, txPoll, 1L, 1);
            } catch (Throwable t) {
                throw new IOException("poll on " + ifname, t);
            }
        }
    }

    /** Received frames dropped because the kernel had to cut them to fit a receive block. */
    public long truncated() {
        return truncated;
    }

    /** Frames dropped because they did not fit a transmit slot. */
    public long oversize() {
        return oversize;
    }

    /**
     * Frames the kernel dropped because the receive ring was full, since the last call (the kernel
     * resets its counters when read).
     */
    public synchronized long receiveDrops() {
        if (closed) {
            return -1;
        }
        try {
            statsLen.set(ValueLayout.JAVA_INT, 0, 12);
            int rc = (int) Libc.GETSOCKOPT.invokeExact(setupState, rxFd, Libc.SOL_PACKET, Libc.PACKET_STATISTICS, statsBuf,
                    statsLen);
            return rc == 0 ? statsBuf.get(ValueLayout.JAVA_INT, 4) & 0xFFFFFFFFL : -1;
        } catch (Throwable t) {
            return -1;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (txLock) {
            closeQuietly(rxFd);
            closeQuietly(txFd);
            try {
                arena.close();
            } catch (IllegalStateException stillInUse) {
                // a thread is inside a call on the rings: leave them mapped rather than pull memory from under it
            }
        }
    }
}
