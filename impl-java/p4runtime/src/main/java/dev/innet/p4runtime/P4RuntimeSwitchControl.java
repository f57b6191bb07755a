package dev.innet.p4runtime;

import com.google.protobuf.ByteString;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MeterConfig;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import dev.innet.switchapi.SwitchControl;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.p4.config.v1.ControllerPacketMetadata;
import org.p4.config.v1.MatchField;
import org.p4.config.v1.P4Info;
import org.p4.config.v1.Table;
import org.p4.v1.Action;
import org.p4.v1.CounterData;
import org.p4.v1.CounterEntry;
import org.p4.v1.DirectMeterEntry;
import org.p4.v1.Entity;
import org.p4.v1.GetForwardingPipelineConfigRequest;
import org.p4.v1.Index;
import org.p4.v1.MasterArbitrationUpdate;
import org.p4.v1.MeterEntry;
import org.p4.v1.MulticastGroupEntry;
import org.p4.v1.P4Data;
import org.p4.v1.P4RuntimeGrpc;
import org.p4.v1.PacketMetadata;
import org.p4.v1.PacketOut;
import org.p4.v1.PacketReplicationEngineEntry;
import org.p4.v1.ReadRequest;
import org.p4.v1.RegisterEntry;
import org.p4.v1.StreamMessageRequest;
import org.p4.v1.StreamMessageResponse;
import org.p4.v1.TableAction;
import org.p4.v1.TableEntry;
import org.p4.v1.Update;
import org.p4.v1.WriteRequest;

/**
 * innet's {@link SwitchControl} over P4Runtime: a controller in another process drives a switch (p4sim's
 * P4Runtime server, or any P4Runtime v1 target) through the same interface it uses in-process. It opens a
 * StreamChannel, wins arbitration with its election id, and reads the P4Info from the device; names are
 * full names or P4Info aliases. Packet-out frames and packet-in frames are whole frames, controller
 * header included, as with p4sim in-process: the header is split into metadata on the way out and put
 * back on the way in. Digests report receiver 0 (P4Runtime does not carry the receiver).
 *
 * <p>The StreamChannel is what makes this client the primary. When it ends after arbitration (the server
 * closed it, went away or restarted, or the connection broke) the client says so: {@link #streamEnded}
 * gives the reason, listeners given to {@link #onStreamEnd} are told once, and every later call throws a
 * ControlException naming the dead stream instead of talking to a switch it no longer controls. Make a
 * new instance to reconnect. Unary calls also carry a deadline ({@value #CALL_DEADLINE_SECONDS} s), so
 * a server that stops answering without closing the connection fails them instead of hanging.
 */
public final class P4RuntimeSwitchControl implements SwitchControl, AutoCloseable {
    private final long deviceId;
    private final org.p4.v1.Uint128 election;
    private final ManagedChannel channel;
    private final P4RuntimeGrpc.P4RuntimeBlockingStub stub;
    private final StreamObserver<StreamMessageRequest> stream;
    private final LinkedBlockingQueue<Object> arbitration = new LinkedBlockingQueue<>();
    private final List<Consumer<PacketIn>> packetIns = new CopyOnWriteArrayList<>();
    private final List<Consumer<Digest>> digests = new CopyOnWriteArrayList<>();
    private final ProgramIndex index;
    private final TableCodec codec;
    private final String target;
    /** deadline of each unary call (Write, Read, GetForwardingPipelineConfig) */
    static final int CALL_DEADLINE_SECONDS = 30;
    /** why the StreamChannel ended after arbitration; null while it is open */
    private volatile String streamEnd;
    private volatile boolean arbitrated;
    private volatile boolean closing;
    private final List<Consumer<String>> streamEndListeners = new CopyOnWriteArrayList<>();

    public P4RuntimeSwitchControl(String host, int port, long deviceId, long electionId) {
        this.deviceId = deviceId;
        this.election = org.p4.v1.Uint128.newBuilder().setLow(electionId).build();
        this.channel = NettyChannelBuilder.forAddress(host, port).usePlaintext().maxInboundMessageSize(64 << 20).build();
        this.stub = P4RuntimeGrpc.newBlockingStub(channel);
        this.target = host + ":" + port;
        this.stream = P4RuntimeGrpc.newStub(channel).streamChannel(new StreamObserver<>() {
            @Override
            public void onNext(StreamMessageResponse r) {
                switch (r.getUpdateCase()) {
                    case ARBITRATION -> arbitration.add(r.getArbitration());
                    case PACKET -> deliverPacketIn(r.getPacket());
                    case DIGEST -> deliverDigest(r.getDigest());
                    default -> { }
                }
            }

            @Override
            public void onError(Throwable t) {
                arbitration.add(t);
                ended(t instanceof StatusRuntimeException se ? se.getStatus().getCode() + describe(se.getStatus().getDescription())
                        : t.toString());
            }

            @Override
            public void onCompleted() {
                arbitration.add(new ControlException("the server closed the StreamChannel"));
                ended("the server closed it");
            }
        });
        try {
            synchronized (stream) {
                stream.onNext(StreamMessageRequest.newBuilder().setArbitration(MasterArbitrationUpdate.newBuilder()
                        .setDeviceId(deviceId).setElectionId(election)).build());
            }
            Object answer = arbitration.poll(10, TimeUnit.SECONDS);
            if (answer == null) {
                throw new ControlException("no arbitration answer from the P4Runtime server at " + host + ":" + port + " in 10 s");
            }
            if (answer instanceof Throwable t) {
                throw new ControlException("P4Runtime arbitration with " + host + ":" + port + " failed: " + t.getMessage());
            }
            if (((MasterArbitrationUpdate) answer).getStatus().getCode() != 0) {
                throw new ControlException("another P4Runtime client is the primary of " + host + ":" + port
                        + " (election id " + primaryOf(answer) + ")");
            }
            arbitrated = true;
            P4Info info = rpc(() -> stub().getForwardingPipelineConfig(GetForwardingPipelineConfigRequest.newBuilder().setDeviceId(deviceId)
                    .setResponseType(GetForwardingPipelineConfigRequest.ResponseType.P4INFO_AND_COOKIE).build())).getConfig().getP4Info();
            this.index = new ProgramIndex(info, List.of());
            this.codec = new TableCodec(index);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new ControlException("interrupted while connecting to P4Runtime at " + host + ":" + port);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static String describe(String description) {
        return description == null ? "" : " (" + description + ")";
    }

    /** The stream ended: record why (the first reason) and tell the listeners, unless this client closed it. */
    private void ended(String why) {
        if (closing || !arbitrated) {
            return;
        }
        synchronized (streamEndListeners) {
            if (streamEnd != null) {
                return;
            }
            streamEnd = why;
        }
        String message = deadMessage();
        streamEndListeners.forEach(l -> l.accept(message));
    }

    private String deadMessage() {
        return "the P4Runtime StreamChannel to " + target + " ended (" + streamEnd + "): this client is no longer the"
                + " switch's primary controller (is the switch down or restarted?); connect again";
    }

    /** Why the StreamChannel ended, or null while it is open (and this client the primary). */
    public String streamEnded() {
        return streamEnd == null ? null : deadMessage();
    }

    /** Calls {@code listener} with the reason once the StreamChannel ends (at once if it has already ended). */
    public void onStreamEnd(Consumer<String> listener) {
        synchronized (streamEndListeners) {
            if (streamEnd == null) {
                streamEndListeners.add(listener);
                return;
            }
        }
        listener.accept(deadMessage());
    }

    private void requireStream() {
        if (streamEnd != null) {
            throw new ControlException(deadMessage());
        }
    }

    private P4RuntimeGrpc.P4RuntimeBlockingStub stub() {
        requireStream();
        return stub.withDeadlineAfter(CALL_DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    private static String primaryOf(Object answer) {
        return P4RuntimeService.toBig(((MasterArbitrationUpdate) answer).getElectionId()).toString();
    }

    public P4Info p4info() {
        return index.p4info;
    }

    // ---------------------------------------------------------------- tables

    @Override
    public void addEntry(EntrySpec e) {
        write(Update.Type.INSERT, Entity.newBuilder().setTableEntry(entry(e)).build());
    }

    @Override
    public void modifyEntry(EntrySpec e) {
        write(Update.Type.MODIFY, Entity.newBuilder().setTableEntry(entry(e)).build());
    }

    @Override
    public void deleteEntry(String table, List<Match> match, int priority) {
        Table t = table(table);
        write(Update.Type.DELETE, Entity.newBuilder().setTableEntry(matchOnly(t, match, priority)).build());
    }

    @Override
    public List<EntrySpec> readEntries(String table) {
        Table t = table(table);
        List<EntrySpec> out = new ArrayList<>();
        for (Entity e : read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(t.getPreamble().getId())).build())) {
            out.add(spec(t, e.getTableEntry()));
        }
        return out;
    }

    @Override
    public void setDefaultAction(String table, String action, List<BigInteger> args) {
        Table t = table(table);
        write(Update.Type.MODIFY, Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(t.getPreamble().getId())
                .setIsDefaultAction(true).setAction(action(action, args))).build());
    }

    @Override
    public EntrySpec readDefaultAction(String table) {
        Table t = table(table);
        List<Entity> got = read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(t.getPreamble().getId()).setIsDefaultAction(true)).build());
        return spec(t, got.getFirst().getTableEntry());
    }

    @Override
    public void clearTable(String table) {
        Table t = table(table);
        List<Update> deletes = new ArrayList<>();
        for (Entity e : read(Entity.newBuilder().setTableEntry(TableEntry.newBuilder().setTableId(t.getPreamble().getId())).build())) {
            deletes.add(Update.newBuilder().setType(Update.Type.DELETE).setEntity(e).build());
        }
        if (!deletes.isEmpty()) {
            writeAll(deletes, WriteRequest.Atomicity.ROLLBACK_ON_ERROR);
        }
    }

    private TableEntry entry(EntrySpec e) {
        Table t = table(e.table());
        return matchOnly(t, e.match(), e.priority()).toBuilder().setAction(action(e.action(), e.args())).build();
    }

    private TableEntry matchOnly(Table t, List<Match> match, int priority) {
        if (match.size() != t.getMatchFieldsCount()) {
            throw new ControlException("table " + t.getPreamble().getName() + " has " + t.getMatchFieldsCount() + " key field(s), got " + match.size());
        }
        // the server checks the rest, and says what is wrong
        return codec.matchOnly(t, match, priority).build();
    }

    private TableAction action(String name, List<BigInteger> args) {
        org.p4.config.v1.Action a = index.p4info.getActionsList().stream()
                .filter(x -> x.getPreamble().getName().equals(name) || x.getPreamble().getAlias().equals(name)).findFirst()
                .orElseThrow(() -> new ControlException("unknown action '" + name + "'"));
        if (args.size() != a.getParamsCount()) {
            throw new ControlException("action " + a.getPreamble().getName() + " takes " + a.getParamsCount() + " argument(s), got " + args.size());
        }
        Action.Builder b = Action.newBuilder().setActionId(a.getPreamble().getId());
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).signum() < 0) {
                throw new ControlException("negative argument " + args.get(i) + " for " + a.getPreamble().getName());
            }
            b.addParams(Action.Param.newBuilder().setParamId(a.getParams(i).getId()).setValue(Bytes.encode(args.get(i))));
        }
        return TableAction.newBuilder().setAction(b).build();
    }

    private EntrySpec spec(Table t, TableEntry te) {
        List<Match> match = new ArrayList<>();
        for (MatchField mf : t.getMatchFieldsList()) {
            var fm = te.getMatchList().stream().filter(m -> m.getFieldId() == mf.getId()).findFirst();
            if (fm.isEmpty()) {
                match.add(new Match.Wildcard());
                continue;
            }
            var m = fm.get();
            match.add(switch (m.getFieldMatchTypeCase()) {
                case EXACT -> new Match.Exact(new BigInteger(1, m.getExact().getValue().toByteArray()));
                case OPTIONAL -> new Match.Exact(new BigInteger(1, m.getOptional().getValue().toByteArray()));
                case TERNARY -> new Match.Ternary(new BigInteger(1, m.getTernary().getValue().toByteArray()),
                        new BigInteger(1, m.getTernary().getMask().toByteArray()));
                case LPM -> new Match.Lpm(new BigInteger(1, m.getLpm().getValue().toByteArray()), m.getLpm().getPrefixLen());
                case RANGE -> new Match.Range(new BigInteger(1, m.getRange().getLow().toByteArray()),
                        new BigInteger(1, m.getRange().getHigh().toByteArray()));
                default -> throw new ControlException("unsupported match " + m.getFieldMatchTypeCase());
            });
        }
        Action a = te.getAction().getAction();
        List<BigInteger> args = new ArrayList<>();
        for (Action.Param p : a.getParamsList()) {
            args.add(new BigInteger(1, p.getValue().toByteArray()));
        }
        return new EntrySpec(t.getPreamble().getName(), match, te.getPriority(), index.action(a.getActionId()).getPreamble().getName(), args);
    }

    private Table table(String name) {
        return index.p4info.getTablesList().stream()
                .filter(t -> t.getPreamble().getName().equals(name) || t.getPreamble().getAlias().equals(name)).findFirst()
                .orElseThrow(() -> new ControlException("unknown table '" + name + "'"));
    }

    // ---------------------------------------------------------------- externs

    private org.p4.config.v1.Register register(String name) {
        return index.p4info.getRegistersList().stream()
                .filter(r -> r.getPreamble().getName().equals(name) || r.getPreamble().getAlias().equals(name)).findFirst()
                .orElseThrow(() -> new ControlException("unknown register '" + name + "'"));
    }

    private org.p4.config.v1.Counter counter(String name) {
        return index.p4info.getCountersList().stream()
                .filter(r -> r.getPreamble().getName().equals(name) || r.getPreamble().getAlias().equals(name)).findFirst()
                .orElseThrow(() -> new ControlException("unknown counter '" + name + "'"));
    }

    private org.p4.config.v1.Meter meter(String name) {
        return index.p4info.getMetersList().stream()
                .filter(r -> r.getPreamble().getName().equals(name) || r.getPreamble().getAlias().equals(name)).findFirst()
                .orElseThrow(() -> new ControlException("unknown meter '" + name + "'"));
    }

    @Override
    public BigInteger registerRead(String register, int index) {
        return registerRead(register, index, index).getFirst();
    }

    @Override
    public List<BigInteger> registerRead(String register, int from, int to) {
        var r = register(register);
        if (from > to) {
            throw new ControlException("register " + r.getPreamble().getName() + ": empty range " + from + ".." + to);
        }
        List<Entity> queries = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            queries.add(Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(r.getPreamble().getId())
                    .setIndex(Index.newBuilder().setIndex(i))).build());
        }
        return read(queries).stream().map(e -> new BigInteger(1, e.getRegisterEntry().getData().getBitstring().toByteArray())).toList();
    }

    @Override
    public void registerWrite(String register, int index, BigInteger value) {
        registerWrite(register, index, index, value);
    }

    @Override
    public void registerWrite(String register, int from, int to, BigInteger value) {
        var r = register(register);
        if (value.signum() < 0) {
            throw new ControlException("negative value " + value + " for register " + r.getPreamble().getName());
        }
        List<Update> updates = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            updates.add(Update.newBuilder().setType(Update.Type.MODIFY).setEntity(Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder()
                    .setRegisterId(r.getPreamble().getId()).setIndex(Index.newBuilder().setIndex(i))
                    .setData(P4Data.newBuilder().setBitstring(Bytes.encode(value))))).build());
        }
        writeAll(updates, WriteRequest.Atomicity.ROLLBACK_ON_ERROR);
    }

    @Override
    public void registerReset(String register) {
        var r = register(register);
        write(Update.Type.MODIFY, Entity.newBuilder().setRegisterEntry(RegisterEntry.newBuilder().setRegisterId(r.getPreamble().getId())
                .setData(P4Data.newBuilder().setBitstring(ByteString.copyFrom(new byte[] {0})))).build());
    }

    @Override
    public CounterValue counterRead(String counter, int index) {
        var c = counter(counter);
        var d = read(Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(c.getPreamble().getId())
                .setIndex(Index.newBuilder().setIndex(index))).build()).getFirst().getCounterEntry().getData();
        return new CounterValue(d.getPacketCount(), d.getByteCount());
    }

    @Override
    public void counterWrite(String counter, int index, CounterValue value) {
        var c = counter(counter);
        write(Update.Type.MODIFY, Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(c.getPreamble().getId())
                .setIndex(Index.newBuilder().setIndex(index))
                .setData(CounterData.newBuilder().setPacketCount(value.packets()).setByteCount(value.bytes()))).build());
    }

    @Override
    public void counterReset(String counter) {
        var c = counter(counter);
        write(Update.Type.MODIFY, Entity.newBuilder().setCounterEntry(CounterEntry.newBuilder().setCounterId(c.getPreamble().getId())
                .setData(CounterData.getDefaultInstance())).build());
    }

    @Override
    public CounterValue directCounterRead(String table, List<Match> match, int priority) {
        Table t = table(table);
        List<Entity> got = read(Entity.newBuilder().setTableEntry(matchOnly(t, match, priority).toBuilder()
                .setCounterData(CounterData.getDefaultInstance())).build());
        if (got.isEmpty()) {
            throw new ControlException("no entry with this match in table " + t.getPreamble().getName());
        }
        CounterData d = got.getFirst().getTableEntry().getCounterData();
        return new CounterValue(d.getPacketCount(), d.getByteCount());
    }

    @Override
    public void meterSet(String meter, int index, MeterConfig config) {
        var m = meter(meter);
        write(Update.Type.MODIFY, Entity.newBuilder().setMeterEntry(MeterEntry.newBuilder().setMeterId(m.getPreamble().getId())
                .setIndex(Index.newBuilder().setIndex(index)).setConfig(meterConfig(config))).build());
    }

    @Override
    public MeterConfig meterRead(String meter, int index) {
        var m = meter(meter);
        var e = read(Entity.newBuilder().setMeterEntry(MeterEntry.newBuilder().setMeterId(m.getPreamble().getId())
                .setIndex(Index.newBuilder().setIndex(index))).build()).getFirst().getMeterEntry();
        if (!e.hasConfig()) {
            return null;
        }
        var c = e.getConfig();
        return new MeterConfig(c.getCir() / 1e6, c.getCburst(), c.getPir() / 1e6, c.getPburst());
    }

    @Override
    public void directMeterSet(String table, List<Match> match, int priority, MeterConfig config) {
        Table t = table(table);
        write(Update.Type.MODIFY, Entity.newBuilder().setDirectMeterEntry(DirectMeterEntry.newBuilder()
                .setTableEntry(matchOnly(t, match, priority)).setConfig(meterConfig(config))).build());
    }

    private static org.p4.v1.MeterConfig meterConfig(MeterConfig c) {
        return org.p4.v1.MeterConfig.newBuilder().setCir(Math.round(c.committedRate() * 1e6)).setCburst(c.committedBurst())
                .setPir(Math.round(c.peakRate() * 1e6)).setPburst(c.peakBurst()).build();
    }

    @Override
    public void multicastGroupSet(int group, List<Replica> replicas) {
        MulticastGroupEntry.Builder g = MulticastGroupEntry.newBuilder().setMulticastGroupId(group);
        for (Replica r : replicas) {
            g.addReplicas(org.p4.v1.Replica.newBuilder().setPort(Bytes.encode(r.port())).setInstance(r.rid()));
        }
        Entity e = Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder().setMulticastGroupEntry(g)).build();
        boolean exists = !read(Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setMulticastGroupEntry(MulticastGroupEntry.newBuilder().setMulticastGroupId(group))).build()).isEmpty();
        write(exists ? Update.Type.MODIFY : Update.Type.INSERT, e);
    }

    @Override
    public void multicastGroupDelete(int group) {
        write(Update.Type.DELETE, Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setMulticastGroupEntry(MulticastGroupEntry.newBuilder().setMulticastGroupId(group))).build());
    }

    @Override
    public void cloneSessionSet(int session, int port) {
        Entity e = Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setCloneSessionEntry(org.p4.v1.CloneSessionEntry.newBuilder().setSessionId(session)
                        .addReplicas(org.p4.v1.Replica.newBuilder().setPort(Bytes.encode(port))))).build();
        boolean exists = !read(Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setCloneSessionEntry(org.p4.v1.CloneSessionEntry.newBuilder().setSessionId(session))).build()).isEmpty();
        write(exists ? Update.Type.MODIFY : Update.Type.INSERT, e);
    }

    @Override
    public void cloneSessionDelete(int session) {
        write(Update.Type.DELETE, Entity.newBuilder().setPacketReplicationEngineEntry(PacketReplicationEngineEntry.newBuilder()
                .setCloneSessionEntry(org.p4.v1.CloneSessionEntry.newBuilder().setSessionId(session))).build());
    }

    // ---------------------------------------------------------------- packets and digests

    @Override
    public void packetOut(byte[] frame) {
        PacketOut.Builder p = PacketOut.newBuilder();
        ControllerPacketMetadata header = index.packetOut;
        int offset = 0;
        if (header != null) {
            int bytes = (ProgramIndex.totalBits(header) + 7) / 8;
            if (frame.length < bytes) {
                throw new ControlException("packet-out frame of " + frame.length + " bytes is shorter than the packet_out header (" + bytes + ")");
            }
            List<PacketMetadata> md = split(header, frame);
            p.addAllMetadata(md);
            offset = bytes;
        }
        p.setPayload(ByteString.copyFrom(frame, offset, frame.length - offset));
        requireStream();
        synchronized (stream) {
            stream.onNext(StreamMessageRequest.newBuilder().setPacket(p).build());
        }
    }

    private static List<PacketMetadata> split(ControllerPacketMetadata header, byte[] frame) {
        int bytes = (ProgramIndex.totalBits(header) + 7) / 8;
        BigInteger bits = new BigInteger(1, java.util.Arrays.copyOf(frame, bytes));
        int shift = bytes * 8;
        List<PacketMetadata> out = new ArrayList<>();
        for (ControllerPacketMetadata.Metadata f : header.getMetadataList()) {
            shift -= f.getBitwidth();
            BigInteger v = bits.shiftRight(shift).and(BigInteger.ONE.shiftLeft(f.getBitwidth()).subtract(BigInteger.ONE));
            out.add(PacketMetadata.newBuilder().setMetadataId(f.getId()).setValue(Bytes.encode(v)).build());
        }
        return out;
    }

    private void deliverPacketIn(org.p4.v1.PacketIn p) {
        byte[] payload = p.getPayload().toByteArray();
        byte[] frame = payload;
        ControllerPacketMetadata header = index == null ? null : index.packetIn;
        if (header != null) {
            int bytes = (ProgramIndex.totalBits(header) + 7) / 8;
            BigInteger bits = BigInteger.ZERO;
            for (ControllerPacketMetadata.Metadata f : header.getMetadataList()) {
                BigInteger v = p.getMetadataList().stream().filter(m -> m.getMetadataId() == f.getId()).findFirst()
                        .map(m -> new BigInteger(1, m.getValue().toByteArray())).orElse(BigInteger.ZERO);
                bits = bits.shiftLeft(f.getBitwidth()).or(v);
            }
            bits = bits.shiftLeft(bytes * 8 - ProgramIndex.totalBits(header));
            frame = new byte[bytes + payload.length];
            byte[] h = bits.toByteArray();
            int copy = Math.min(h.length, bytes);
            System.arraycopy(h, h.length - copy, frame, bytes - copy, copy);
            System.arraycopy(payload, 0, frame, bytes, payload.length);
        }
        PacketIn in = new PacketIn(frame);
        packetIns.forEach(c -> c.accept(in));
    }

    private void deliverDigest(org.p4.v1.DigestList list) {
        for (P4Data d : list.getDataList()) {
            List<BigInteger> values = d.getStruct().getMembersList().stream().map(m -> new BigInteger(1, m.getBitstring().toByteArray())).toList();
            Digest digest = new Digest(0, values);
            digests.forEach(c -> c.accept(digest));
        }
    }

    @Override
    public void onPacketIn(Consumer<PacketIn> sink) {
        packetIns.add(sink);
    }

    /** Also configures every digest of the P4Info on the device (P4Runtime sends none until then). */
    @Override
    public void onDigest(Consumer<Digest> sink) {
        if (digests.isEmpty()) {
            for (var d : index.p4info.getDigestsList()) {
                write(Update.Type.INSERT, Entity.newBuilder().setDigestEntry(org.p4.v1.DigestEntry.newBuilder().setDigestId(d.getPreamble().getId())
                        .setConfig(org.p4.v1.DigestEntry.Config.newBuilder().setMaxListSize(1))).build());
            }
        }
        digests.add(sink);
    }

    // ---------------------------------------------------------------- calls

    private void write(Update.Type type, Entity e) {
        writeAll(List.of(Update.newBuilder().setType(type).setEntity(e).build()), WriteRequest.Atomicity.CONTINUE_ON_ERROR);
    }

    private void writeAll(List<Update> updates, WriteRequest.Atomicity atomicity) {
        rpc(() -> stub().write(WriteRequest.newBuilder().setDeviceId(deviceId).setElectionId(election).setAtomicity(atomicity)
                .addAllUpdates(updates).build()));
    }

    private List<Entity> read(Entity query) {
        return read(List.of(query));
    }

    private List<Entity> read(List<Entity> queries) {
        List<Entity> out = new ArrayList<>();
        rpc(() -> {
            stub().read(ReadRequest.newBuilder().setDeviceId(deviceId).addAllEntities(queries).build())
                    .forEachRemaining(r -> out.addAll(r.getEntitiesList()));
            return null;
        });
        return out;
    }

    /**
     * A gRPC failure becomes the ControlException every SwitchControl throws, with the server's message;
     * when the StreamChannel has ended meanwhile, the message says so.
     */
    private <T> T rpc(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (StatusRuntimeException e) {
            if (e.getStatus().getCode() == io.grpc.Status.Code.DEADLINE_EXCEEDED) {
                throw new ControlException("no answer from the P4Runtime server at " + target + " in " + CALL_DEADLINE_SECONDS + " s");
            }
            if (streamEnd != null) {
                throw new ControlException(deadMessage() + "; the call failed with " + e.getStatus().getCode());
            }
            com.google.rpc.Status st = StatusProto.fromThrowable(e);
            String message = e.getStatus().getDescription() != null ? e.getStatus().getDescription()
                    : st != null ? st.getMessage() : e.getStatus().getCode().toString();
            throw new ControlException(message);
        }
    }

    @Override
    public void close() {
        closing = true;
        try {
            synchronized (stream) {
                stream.onCompleted();
            }
        } catch (RuntimeException ignored) {
            // the stream is already closed
        }
        channel.shutdownNow();
    }
}
