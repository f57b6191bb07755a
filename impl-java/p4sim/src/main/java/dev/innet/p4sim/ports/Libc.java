package dev.innet.p4sim.ports;

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
 * The libc calls the memory-mapped packet rings need, as FFM downcall handles that capture errno.
 * Each caller passes its own errno capture segment ({@link #STATE}-sized), so threads never share one.
 */
final class Libc {
    static final int AF_PACKET = 17;
    static final int SOCK_RAW = 3;
    static final int ETH_P_ALL = 0x0003;
    static final int SOL_PACKET = 263;
    static final int PACKET_RX_RING = 5;
    static final int PACKET_STATISTICS = 6;
    static final int PACKET_VERSION = 10;
    static final int PACKET_TX_RING = 13;
    static final int PACKET_LOSS = 14;
    static final int PACKET_QDISC_BYPASS = 20;
    static final int PACKET_IGNORE_OUTGOING = 23;
    static final int TPACKET_V2 = 1;
    static final int TPACKET_V3 = 2;
    static final int PACKET_OUTGOING = 4;
    static final int PROT_READ_WRITE = 3;
    static final int MAP_SHARED = 1;
    static final int MAP_POPULATE = 0x8000;
    static final int MSG_DONTWAIT = 0x40;
    static final short POLLIN = 1;
    static final short POLLOUT = 4;
    static final int EAGAIN = 11;
    static final int EINTR = 4;
    static final int ENOBUFS = 105;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup C = LINKER.defaultLookup();
    static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    static final MethodHandle SOCKET = fn("socket", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    static final MethodHandle BIND = fn("bind", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    static final MethodHandle SETSOCKOPT = fn("setsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    static final MethodHandle GETSOCKOPT = fn("getsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    static final MethodHandle MMAP = fn("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
            ValueLayout.JAVA_LONG));
    static final MethodHandle MUNMAP = fn("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    static final MethodHandle SEND = fn("send", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    static final MethodHandle POLL = fn("poll", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    static final MethodHandle CLOSE = fn("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    static final MethodHandle IF_NAMETOINDEX = fn("if_nametoindex", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS));

    private Libc() { }

    @SuppressWarnings("restricted") // native access is this class's job; run with --enable-native-access
    private static MethodHandle fn(String name, FunctionDescriptor d) {
        MemorySegment sym = C.find(name).orElseThrow(() -> new IllegalStateException("libc has no " + name));
        return LINKER.downcallHandle(sym, d, CAPTURE_ERRNO);
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
