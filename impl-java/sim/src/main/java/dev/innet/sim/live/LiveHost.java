package dev.innet.sim.live;

import dev.innet.sim.Clock;
import dev.innet.sim.DurableStore;
import dev.innet.sim.Network;
import dev.innet.sim.Node;
import dev.innet.sim.NodeContext;
import dev.innet.sim.NodeFactory;
import dev.innet.sim.RandomSource;
import dev.innet.sim.Timers;
import dev.innet.sim.TraceEvent;
import dev.innet.wire.RackAddressing;
import dev.innet.wire.UdpFrame;
import dev.innet.wire.WireException;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs one {@link Node} live: the same node class as in the simulator, over real UDP sockets and a
 * real clock. Threads exist only at the edge: one receiver thread per socket turns each datagram back
 * into the Ethernet/IPv4/UDP frame the simulator would have delivered and queues it; one event-loop
 * thread runs every handler and timer, so node code stays single-threaded exactly as in simulation.
 *
 * <p>The node declares nothing about sockets: the host binds one socket per innet UDP port it is
 * configured with, and a frame the node sends leaves from the socket of its source port. Frames must
 * be UDP/IPv4 from this host's rack address (the kernel builds the real headers; a live host cannot
 * forge them). The switch, when there is one, is wherever the real network puts it.
 */
public final class LiveHost implements AutoCloseable {
    /** Bound on queued inbound frames and tasks: a node that cannot keep up loses frames, as a NIC ring would. */
    public static final int INBOX_CAPACITY = 4_096;
    /** Durable key under which the host counts its starts, so incarnation numbers mean the same as in simulation. */
    public static final String INCARNATION_KEY = "innet.runtime.incarnation";
    private static final int MAX_PAYLOAD = Network.MAX_FRAME_BYTES - UdpFrame.HEADERS;
    private static final long IDLE_POLL_NANOS = 100_000_000L;

    private final int hostNumber;
    private final int ip;
    private final NodeFactory factory;
    private final AddressBook book;
    private final List<Integer> ports;
    private final InetAddress bindAddress;
    private final RandomSource random;
    private final DurableStore durable;
    private final PrintStream log;
    /** Where protocol trace events go as NDJSON; null (the default) drops them. */
    private volatile PrintStream traceEvents;
    private volatile java.util.function.LongSupplier traceStamp;
    /** Set by {@link #traceStepStarts()}: each event also says when its handler began. */
    private volatile boolean traceStepStarts;
    /** When the running handler began, on the trace's clock (loop thread only). */
    private long handlerStart;
    private final Clock clock;

    private final BlockingQueue<Runnable> inbox = new ArrayBlockingQueue<>(INBOX_CAPACITY);
    private final TreeMap<Integer, DatagramChannel> channelByPort = new TreeMap<>();
    private final List<Thread> receivers = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong droppedInbound = new AtomicLong();
    private final AtomicLong unroutable = new AtomicLong();
    /** Futures of {@link #call} not yet run: failed when the loop stops, so callers never wait forever. */
    private final Set<CompletableFuture<?>> pendingCalls = ConcurrentHashMap.newKeySet();
    private volatile boolean running;
    private Thread loop;

    // Owned by the loop thread only.
    private Node node;
    private final PriorityQueue<long[]> timerQueue = new PriorityQueue<>((a, b) ->
            a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    private final Set<Long> pendingTimers = new HashSet<>();
    private long nextTimerId = 1;

    /**
     * @param ports       innet UDP ports this host listens on (a server's protocol port, a client's ephemeral port)
     * @param bindAddress where to bind sockets when {@code book} is mapped (e.g. loopback); ignored for identity
     * @param log         where node log lines go (null for nowhere)
     */
    public LiveHost(int hostNumber, NodeFactory factory, AddressBook book, List<Integer> ports, InetAddress bindAddress,
                    RandomSource random, DurableStore durable, PrintStream log) {
        this(hostNumber, factory, book, ports, bindAddress, random, durable, log, new MonotonicClock());
    }

    /**
     * As above with the node's clock given: a live rack's host process passes a clock it can move forward
     * at run time (the Jepsen campaign's clock-skew nemesis, docs/jepsen.md). Timers run on this clock too.
     */
    public LiveHost(int hostNumber, NodeFactory factory, AddressBook book, List<Integer> ports, InetAddress bindAddress,
                    RandomSource random, DurableStore durable, PrintStream log, Clock clock) {
        this.clock = clock;
        this.hostNumber = hostNumber;
        this.ip = RackAddressing.hostIp(hostNumber);
        this.factory = factory;
        this.book = book;
        this.ports = List.copyOf(ports);
        this.bindAddress = bindAddress;
        this.random = random;
        this.durable = durable;
        this.log = log;
        if (this.ports.isEmpty()) {
            throw new IllegalArgumentException("a live host listens on at least one port");
        }
    }

    /**
     * Writes the node's protocol trace events as NDJSON lines to {@code out} (time = this host's monotonic
     * clock). Without this call they are dropped: a live host traces only when asked to.
     */
    public LiveHost traceEventsTo(PrintStream out) {
        return traceEventsTo(out, null);
    }

    /**
     * As {@link #traceEventsTo(PrintStream)}, with each event's time taken from {@code stamp} instead of the
     * node's clock: a live rack stamps every host's events with one machine-wide clock (the history's), so
     * that the hosts' files merge into one run in the order things happened; a node's own clock starts at
     * its process's start and may be skewed.
     */
    public LiveHost traceEventsTo(PrintStream out, java.util.function.LongSupplier stamp) {
        this.traceStamp = stamp;
        this.traceEvents = out;
        return this;
    }

    /**
     * Adds {@link TraceEvent#STEP_START} to each traced event: when the handler that emitted it began. A live rack's
     * controller asks for it: its step's switch writes fall between that time and the event's stamp, however long
     * the control calls took (TraceEventsMerge places the step at its last write).
     */
    public LiveHost traceStepStarts() {
        this.traceStepStarts = true;
        return this;
    }

    /**
     * Binds the sockets, registering them in a mapped address book. Bind every host of a test before
     * starting any, or the first frames may go to an endpoint nobody has registered yet (and be lost,
     * as UDP to a closed port would be). {@link #start()} binds if this was not called.
     */
    public void bind() {
        if (!channelByPort.isEmpty()) {
            throw new IllegalStateException("already bound");
        }
        try {
            for (int port : ports) {
                DatagramChannel ch = DatagramChannel.open();
                InetSocketAddress local = book.isIdentity()
                        ? new InetSocketAddress(AddressBook.toInetAddress(ip), port)
                        : new InetSocketAddress(bindAddress, 0);
                ch.bind(local);
                if (!book.isIdentity()) {
                    InetSocketAddress bound = (InetSocketAddress) ch.getLocalAddress();
                    book.register(new AddressBook.Endpoint(ip, port), new InetSocketAddress(bindAddress, bound.getPort()));
                }
                channelByPort.put(port, ch);
            }
        } catch (IOException e) {
            closeChannels();
            throw new UncheckedIOException("binding sockets of h" + hostNumber, e);
        }
    }

    /** Starts the threads, then the node (its {@code onStart} runs first on the event loop). */
    public void start() {
        if (loop != null) {
            throw new IllegalStateException("already started");
        }
        if (channelByPort.isEmpty()) {
            bind();
        }
        running = true;
        int incarnation = nextIncarnation();
        if (log != null) {
            // STYLE.md: print the seed, so a live run's random choices can be reproduced.
            log.println("h" + hostNumber + " live: seed=" + random.seed() + " incarnation=" + incarnation
                    + " ports=" + channelByPort.keySet());
        }
        LiveContext ctx = new LiveContext(incarnation);
        inbox.add(() -> {
            node = factory.create();
            node.onStart(ctx);
        });
        // Assigned before it starts: the context checks handlers run on exactly this thread.
        // Daemon, like the receivers: a host nobody closed must not keep the JVM alive.
        loop = Thread.ofPlatform().daemon().name("innet-h" + hostNumber + "-loop").unstarted(this::runLoop);
        loop.start();
        for (var e : channelByPort.entrySet()) {
            int port = e.getKey();
            DatagramChannel ch = e.getValue();
            receivers.add(Thread.ofPlatform().daemon().name("innet-h" + hostNumber + "-rx-" + port)
                    .start(() -> receive(port, ch)));
        }
    }

    /** Runs {@code task} on the event loop with the node, as if it were a handler; the future completes with its result. */
    public <T> CompletableFuture<T> call(Function<Node, T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        pendingCalls.add(result);
        result.whenComplete((v, e) -> pendingCalls.remove(result));
        Runnable r = () -> {
            try {
                result.complete(task.apply(node));
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
                throw e;
            }
        };
        if (!running) {
            result.completeExceptionally(new IllegalStateException("h" + hostNumber + " is not running", failure.get()));
        } else if (!inbox.offer(r)) {
            result.completeExceptionally(new IllegalStateException("h" + hostNumber + " inbox full"));
        } else if (!running) {
            failPendingCalls(); // the loop stopped while we queued: nobody will run the task
        }
        return result;
    }

    private void failPendingCalls() {
        for (CompletableFuture<?> f : List.copyOf(pendingCalls)) {
            f.completeExceptionally(new IllegalStateException("h" + hostNumber + " stopped", failure.get()));
        }
    }

    /** The first exception a handler threw (which stopped the host), or null. */
    public Throwable failure() {
        return failure.get();
    }

    public long droppedInbound() {
        return droppedInbound.get();
    }

    public long unroutable() {
        return unroutable.get();
    }

    /** Stops the threads and closes the sockets; pending timers and queued frames are dropped, as in a crash. */
    @Override
    public void close() {
        running = false;
        closeChannels();
        if (loop != null) {
            loop.interrupt();
            joinQuietly(loop);
        }
        for (Thread t : receivers) {
            joinQuietly(t);
        }
    }

    private int nextIncarnation() {
        int incarnation = durable.get(INCARNATION_KEY).map(b -> ByteBuffer.wrap(b).getInt() + 1).orElse(0);
        durable.put(INCARNATION_KEY, ByteBuffer.allocate(4).putInt(incarnation).array());
        durable.sync();
        return incarnation;
    }

    private void runLoop() {
        try {
            while (running) {
                long now = clock.nowNanos();
                long[] due = timerQueue.peek();
                if (due != null && due[0] <= now) {
                    timerQueue.poll();
                    long id = due[1];
                    if (pendingTimers.remove(id)) {
                        handle(() -> node.onTimer(id));
                    }
                    continue;
                }
                long wait = due == null ? IDLE_POLL_NANOS : due[0] - now;
                Runnable task = inbox.poll(wait, TimeUnit.NANOSECONDS);
                if (task != null) {
                    handle(task);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // close() asked us to stop
        } finally {
            running = false;
            failPendingCalls();
        }
    }

    private void handle(Runnable handler) {
        if (traceStepStarts) {
            java.util.function.LongSupplier stamp = traceStamp;
            handlerStart = stamp != null ? stamp.getAsLong() : clock.nowNanos();
        }
        try {
            handler.run();
        } catch (RuntimeException | Error e) {
            // A handler that throws is a bug (bad input must not throw): stop the host and keep the evidence.
            failure.compareAndSet(null, e);
            running = false;
            if (log != null) {
                log.println("h" + hostNumber + " stopped: handler threw " + e);
            }
        }
    }

    private void receive(int innetPort, DatagramChannel ch) {
        ByteBuffer buf = ByteBuffer.allocate(65_536);
        long ownMac = RackAddressing.hostMac(hostNumber);
        while (running) {
            buf.clear();
            SocketAddress from;
            try {
                from = ch.receive(buf);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!running) {
                    return;
                }
                droppedInbound.incrementAndGet();
                continue;
            }
            AddressBook.Endpoint sender = from instanceof InetSocketAddress isa ? book.innet(isa) : null;
            buf.flip();
            if (sender == null || buf.remaining() > MAX_PAYLOAD) {
                droppedInbound.incrementAndGet();
                continue;
            }
            byte[] payload = new byte[buf.remaining()];
            buf.get(payload);
            int senderHost = RackAddressing.hostOfIp(sender.ip());
            long senderMac = senderHost > 0 ? RackAddressing.hostMac(senderHost) : 0;
            byte[] frame = new UdpFrame(ownMac, senderMac, sender.ip(), ip, sender.port(), innetPort, payload).encode();
            if (!inbox.offer(() -> node.onPacket(frame))) {
                droppedInbound.incrementAndGet();
            }
        }
    }

    private void closeChannels() {
        for (DatagramChannel ch : channelByPort.values()) {
            try {
                ch.close();
            } catch (IOException e) {
                // closing for shutdown: nothing more to do with this socket
            }
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The node's view of the world; usable only from the event-loop thread, like a simulated context. */
    private final class LiveContext implements NodeContext, Network, Timers {
        private final int incarnation;

        LiveContext(int incarnation) {
            this.incarnation = incarnation;
        }

        private void requireLoopThread(String what) {
            if (Thread.currentThread() != loop) {
                throw new IllegalStateException("h" + hostNumber + "'s context used (" + what + ") off its event loop");
            }
        }

        @Override
        public int hostNumber() {
            return hostNumber;
        }

        @Override
        public int incarnation() {
            return incarnation;
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public RandomSource random() {
            return random;
        }

        @Override
        public Network network() {
            return this;
        }

        @Override
        public Timers timers() {
            return this;
        }

        @Override
        public DurableStore durable() {
            return durable;
        }

        @Override
        public void log(String message) {
            if (log != null) {
                log.println("h" + hostNumber + " " + clock.nowNanos() + " " + message);
            }
        }

        @Override
        public void trace(TraceEvent event) {
            PrintStream out = traceEvents;
            if (out != null) {
                java.util.function.LongSupplier stamp = traceStamp;
                long time = stamp != null ? stamp.getAsLong() : clock.nowNanos();
                out.println(traceStepStarts ? event.toJsonLine(time, hostNumber, incarnation(), handlerStart)
                        : event.toJsonLine(time, hostNumber, incarnation()));
            }
        }

        @Override
        public void send(byte[] frame) {
            requireLoopThread("send");
            Network.requireSendable(frame);
            UdpFrame f;
            try {
                f = UdpFrame.decode(frame);
            } catch (WireException e) {
                throw new IllegalArgumentException("the live network carries Ethernet/IPv4/UDP frames only: " + e.getMessage(), e);
            }
            if (f.srcIp() != ip) {
                throw new IllegalArgumentException("h" + hostNumber + " cannot send from " + RackAddressing.ipToString(f.srcIp()));
            }
            DatagramChannel ch = channelByPort.get(f.srcPort());
            if (ch == null) {
                throw new IllegalArgumentException("h" + hostNumber + " has no socket for source port " + f.srcPort()
                        + "; configured ports are " + channelByPort.keySet());
            }
            InetSocketAddress to = book.real(new AddressBook.Endpoint(f.dstIp(), f.dstPort()));
            if (to == null) {
                unroutable.incrementAndGet();
                return;
            }
            try {
                ch.send(ByteBuffer.wrap(f.payload()), to);
            } catch (IOException e) {
                unroutable.incrementAndGet(); // like any UDP loss: the protocol retries
            }
        }

        @Override
        public long schedule(long delayNanos) {
            requireLoopThread("schedule timer");
            if (delayNanos < 0) {
                throw new IllegalArgumentException("timer delay must be >= 0: " + delayNanos);
            }
            if (pendingTimers.size() >= MAX_PENDING) {
                throw new IllegalStateException("h" + hostNumber + " has " + MAX_PENDING + " pending timers (leak?)");
            }
            if (timerQueue.size() >= 2 * MAX_PENDING) {
                timerQueue.removeIf(t -> !pendingTimers.contains(t[1])); // cancelled timers still queued
            }
            long id = nextTimerId++;
            pendingTimers.add(id);
            timerQueue.add(new long[] {clock.nowNanos() + delayNanos, id});
            return id;
        }

        @Override
        public boolean cancel(long timerId) {
            requireLoopThread("cancel timer");
            return pendingTimers.remove(timerId);
        }
    }
}
