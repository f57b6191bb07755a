package dev.innet.p4runtime;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.frontend.CompileError;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.PacketIn;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.p4.config.v1.ControllerPacketMetadata;
import org.p4.config.v1.P4Info;
import org.p4.config.v1.Table;
import org.p4.v1.CapabilitiesRequest;
import org.p4.v1.CapabilitiesResponse;
import org.p4.v1.DigestList;
import org.p4.v1.ForwardingPipelineConfig;
import org.p4.v1.GetForwardingPipelineConfigRequest;
import org.p4.v1.GetForwardingPipelineConfigResponse;
import org.p4.v1.MasterArbitrationUpdate;
import org.p4.v1.P4Data;
import org.p4.v1.P4RuntimeGrpc;
import org.p4.v1.P4StructLike;
import org.p4.v1.PacketMetadata;
import org.p4.v1.PacketOut;
import org.p4.v1.ReadRequest;
import org.p4.v1.ReadResponse;
import org.p4.v1.SetForwardingPipelineConfigRequest;
import org.p4.v1.SetForwardingPipelineConfigResponse;
import org.p4.v1.StreamError;
import org.p4.v1.StreamMessageRequest;
import org.p4.v1.StreamMessageResponse;
import org.p4.v1.Uint128;
import org.p4.v1.Update;
import org.p4.v1.WriteRequest;
import org.p4.v1.WriteResponse;

/**
 * The P4Runtime v1 service of one p4sim switch (device id fixed at start, the default role only).
 * Every call that touches the switch holds {@code lock}, the object the packet path locks, so a Write
 * batch is applied between two packets (all of it or, with ROLLBACK_ON_ERROR / DATAPLANE_ATOMIC on an
 * error, none of it).
 *
 * <p>The pipeline is the program p4sim was started with: SetForwardingPipelineConfig verifies a config
 * (p4_device_config is P4-16 source text, which p4sim compiles) and commits it only when it describes
 * the running program (same P4Info), resetting the forwarding state; a different program is
 * UNIMPLEMENTED (restart p4sim with it).
 */
final class P4RuntimeService extends P4RuntimeGrpc.P4RuntimeImplBase {
    static final String API_VERSION = "1.6.0";
    private static final int READ_CHUNK = 2000;

    private final long deviceId;
    private final P4Switch sw;
    private final Object lock;
    private final ProgramIndex index;
    private final byte[] deviceConfig;
    private final SwitchWriter writer;
    private final SwitchReader reader;
    private final Arbitration<Stream> arbitration = new Arbitration<>();
    private final AtomicLong digestListIds = new AtomicLong();
    private volatile long cookie;

    /** One open StreamChannel; responses to it are serialised (gRPC observers are not thread-safe). */
    final class Stream {
        final StreamObserver<StreamMessageResponse> out;

        Stream(StreamObserver<StreamMessageResponse> out) {
            this.out = out;
        }

        void send(StreamMessageResponse r) {
            synchronized (this) {
                try {
                    out.onNext(r);
                } catch (RuntimeException closed) {
                    // the client went away; its stream is removed when gRPC reports it
                }
            }
        }
    }

    P4RuntimeService(long deviceId, P4Sim.Program program, byte[] deviceConfig, P4Switch sw, Object lock) {
        this.deviceId = deviceId;
        this.sw = sw;
        this.lock = lock;
        this.index = new ProgramIndex(P4InfoBuilder.build(program), P4InfoBuilder.digestSites(program));
        this.deviceConfig = deviceConfig.clone();
        synchronized (lock) {
            this.writer = new SwitchWriter(index, sw.control());
            this.reader = new SwitchReader(index, sw.control(), writer);
            sw.control().onPacketIn(this::packetIn);
            sw.control().onDigest(this::digest);
        }
    }

    P4Info p4info() {
        return index.p4info;
    }

    // ---------------------------------------------------------------- unary calls

    @Override
    public void capabilities(CapabilitiesRequest request, StreamObserver<CapabilitiesResponse> out) {
        out.onNext(CapabilitiesResponse.newBuilder().setP4RuntimeApiVersion(API_VERSION).build());
        out.onCompleted();
    }

    @Override
    public void getForwardingPipelineConfig(GetForwardingPipelineConfigRequest request,
                                            StreamObserver<GetForwardingPipelineConfigResponse> out) {
        if (request.getDeviceId() != deviceId) {
            out.onError(wrongDevice(request.getDeviceId()));
            return;
        }
        ForwardingPipelineConfig.Builder c = ForwardingPipelineConfig.newBuilder()
                .setCookie(ForwardingPipelineConfig.Cookie.newBuilder().setCookie(cookie));
        switch (request.getResponseType()) {
            case ALL -> c.setP4Info(index.p4info).setP4DeviceConfig(ByteString.copyFrom(deviceConfig));
            case P4INFO_AND_COOKIE -> c.setP4Info(index.p4info);
            case DEVICE_CONFIG_AND_COOKIE -> c.setP4DeviceConfig(ByteString.copyFrom(deviceConfig));
            case COOKIE_ONLY -> { }
            default -> {
                out.onError(Status.INVALID_ARGUMENT.withDescription("unknown response_type " + request.getResponseTypeValue()).asRuntimeException());
                return;
            }
        }
        out.onNext(GetForwardingPipelineConfigResponse.newBuilder().setConfig(c).build());
        out.onCompleted();
    }

    @Override
    public void setForwardingPipelineConfig(SetForwardingPipelineConfigRequest request,
                                            StreamObserver<SetForwardingPipelineConfigResponse> out) {
        try {
            checkPrimary(request.getDeviceId(), request.getElectionId(), request.getRole());
            var action = request.getAction();
            switch (action) {
                case VERIFY, VERIFY_AND_SAVE, VERIFY_AND_COMMIT -> {
                    verify(request.getConfig());
                    if (action == SetForwardingPipelineConfigRequest.Action.VERIFY_AND_COMMIT) {
                        commit(request.getConfig());
                    }
                }
                case COMMIT -> commit(request.getConfig());
                case RECONCILE_AND_COMMIT -> throw P4RuntimeError.unimplemented("RECONCILE_AND_COMMIT is not supported by p4sim");
                default -> throw P4RuntimeError.invalid("SetForwardingPipelineConfig needs an action (VERIFY, VERIFY_AND_SAVE, VERIFY_AND_COMMIT, COMMIT)");
            }
            out.onNext(SetForwardingPipelineConfigResponse.getDefaultInstance());
            out.onCompleted();
        } catch (P4RuntimeError e) {
            out.onError(e.toStatus());
        }
    }

    /** Compiles the config's P4 source and checks its P4Info against the one p4sim derives. */
    private void verify(ForwardingPipelineConfig config) {
        if (config.getP4DeviceConfig().isEmpty()) {
            throw P4RuntimeError.invalid("p4_device_config is empty: p4sim takes the P4-16 source text of the program there");
        }
        P4Info derived;
        try {
            derived = P4InfoBuilder.build(P4Sim.compileText("p4_device_config.p4", config.getP4DeviceConfig().toString(StandardCharsets.UTF_8)));
        } catch (CompileError | IllegalArgumentException e) {
            throw P4RuntimeError.invalid("p4_device_config does not compile: " + e.getMessage());
        }
        if (config.hasP4Info() && !config.getP4Info().equals(derived)) {
            throw P4RuntimeError.invalid("the p4info does not match the P4Info p4sim derives from p4_device_config "
                    + "(write the P4Info with --p4info and send that)");
        }
        if (!derived.equals(index.p4info)) {
            throw P4RuntimeError.unimplemented("p4sim cannot change the program of a running switch: restart it with --program");
        }
    }

    /** Commits the running program again: every table, register, counter and digest configuration back to its start. */
    private void commit(ForwardingPipelineConfig config) {
        if (!config.getP4DeviceConfig().isEmpty() || config.hasP4Info()) {
            verify(config);
        }
        synchronized (lock) {
            var control = sw.control();
            for (Table t : index.p4info.getTablesList()) {
                String name = t.getPreamble().getName();
                if (!t.getIsConstTable()) {
                    control.clearTable(name);
                }
                if (t.getConstDefaultActionId() == 0) {
                    writer.prepare(Update.newBuilder().setType(Update.Type.MODIFY).setEntity(org.p4.v1.Entity.newBuilder()
                            .setTableEntry(org.p4.v1.TableEntry.newBuilder().setTableId(t.getPreamble().getId()).setIsDefaultAction(true))).build()).apply();
                }
            }
            index.p4info.getRegistersList().forEach(r -> control.registerReset(r.getPreamble().getName()));
            index.p4info.getCountersList().forEach(c -> control.counterReset(c.getPreamble().getName()));
            writer.digestConfigs.clear();
            writer.profiles.reset();
            index.p4info.getValueSetsList().forEach(v -> control.valueSetClear(v.getPreamble().getName()));
        }
        cookie = config.getCookie().getCookie();
    }

    @Override
    public void write(WriteRequest request, StreamObserver<WriteResponse> out) {
        try {
            checkPrimary(request.getDeviceId(), request.getElectionId(), request.getRole());
            List<SwitchWriter.Prepared> prepared = new ArrayList<>();
            List<P4RuntimeError> errors = new ArrayList<>();
            boolean malformed = false;
            for (Update u : request.getUpdatesList()) {
                try {
                    prepared.add(writer.prepare(u));
                    errors.add(null);
                } catch (P4RuntimeError e) {
                    prepared.add(null);
                    errors.add(e);
                    malformed = true;
                }
            }
            if (malformed) {
                // a batch with a malformed update changes nothing, whatever its atomicity
                out.onError(batchError(errors, "not applied: another update of the batch is malformed"));
                return;
            }
            boolean rollback = request.getAtomicity() == WriteRequest.Atomicity.ROLLBACK_ON_ERROR
                    || request.getAtomicity() == WriteRequest.Atomicity.DATAPLANE_ATOMIC;
            boolean failed = false;
            synchronized (lock) {
                List<Runnable> undo = new ArrayList<>();
                for (int i = 0; i < prepared.size(); i++) {
                    try {
                        undo.add(prepared.get(i).apply());
                    } catch (P4RuntimeError e) {
                        errors.set(i, e);
                        failed = true;
                        if (rollback) {
                            break;
                        }
                    } catch (ControlException e) {
                        errors.set(i, SwitchWriter.fromControl(e));
                        failed = true;
                        if (rollback) {
                            break;
                        }
                    }
                }
                if (failed && rollback) {
                    for (int k = undo.size() - 1; k >= 0; k--) {
                        undo.get(k).run();
                    }
                }
            }
            if (failed) {
                out.onError(batchError(errors, rollback ? "rolled back: another update of the batch failed" : null));
                return;
            }
            out.onNext(WriteResponse.getDefaultInstance());
            out.onCompleted();
        } catch (P4RuntimeError e) {
            out.onError(e.toStatus());
        }
    }

    /**
     * P4Runtime's report of a failed batch: status UNKNOWN whose details hold one p4.v1.Error per update
     * (OK for those applied, or ABORTED with {@code othersMessage} when nothing was applied); the
     * description names the first failure.
     */
    private static RuntimeException batchError(List<P4RuntimeError> errors, String othersMessage) {
        com.google.rpc.Status.Builder st = com.google.rpc.Status.newBuilder().setCode(Status.Code.UNKNOWN.value());
        String first = null;
        for (int i = 0; i < errors.size(); i++) {
            P4RuntimeError e = errors.get(i);
            org.p4.v1.Error.Builder pe = org.p4.v1.Error.newBuilder();
            if (e != null) {
                pe.setCanonicalCode(e.code.value()).setMessage(e.getMessage());
                if (first == null) {
                    first = "update " + i + ": " + e.code + ": " + e.getMessage();
                }
            } else if (othersMessage != null) {
                pe.setCanonicalCode(Status.Code.ABORTED.value()).setMessage(othersMessage);
            } else {
                pe.setCanonicalCode(Status.Code.OK.value());
            }
            st.addDetails(Any.pack(pe.build()));
        }
        st.setMessage(first);
        return StatusProto.toStatusRuntimeException(st.build());
    }

    @Override
    public void read(ReadRequest request, StreamObserver<ReadResponse> out) {
        if (request.getDeviceId() != deviceId) {
            out.onError(wrongDevice(request.getDeviceId()));
            return;
        }
        List<org.p4.v1.Entity> entities = new ArrayList<>();
        try {
            synchronized (lock) {
                for (var e : request.getEntitiesList()) {
                    reader.read(e, entities::add);
                }
            }
        } catch (P4RuntimeError e) {
            out.onError(e.toStatus());
            return;
        }
        // a wildcard read of large registers is hundreds of thousands of entities: several responses,
        // each well under gRPC's default 4 MiB message limit
        for (int from = 0; from < entities.size() || from == 0; from += READ_CHUNK) {
            out.onNext(ReadResponse.newBuilder().addAllEntities(entities.subList(from, Math.min(entities.size(), from + READ_CHUNK))).build());
        }
        out.onCompleted();
    }

    private void checkPrimary(long device, Uint128 election, String role) {
        if (device != deviceId) {
            throw new P4RuntimeError(Status.Code.NOT_FOUND, "no device " + device + " (this switch is device " + deviceId + ")");
        }
        if (!role.isEmpty()) {
            throw P4RuntimeError.unimplemented("roles are not supported by p4sim (role '" + role + "')");
        }
        if (!arbitration.isPrimaryElection(toBig(election))) {
            throw new P4RuntimeError(Status.Code.PERMISSION_DENIED, "election id " + toBig(election)
                    + " is not the primary's (" + arbitration.highest() + "): open a StreamChannel and win arbitration first");
        }
    }

    private RuntimeException wrongDevice(long device) {
        return Status.NOT_FOUND.withDescription("no device " + device + " (this switch is device " + deviceId + ")").asRuntimeException();
    }

    static BigInteger toBig(Uint128 u) {
        return new BigInteger(Long.toUnsignedString(u.getHigh())).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(u.getLow())));
    }

    static Uint128 toUint128(BigInteger v) {
        return Uint128.newBuilder().setHigh(v.shiftRight(64).longValue()).setLow(v.longValue()).build();
    }

    // ---------------------------------------------------------------- the stream

    @Override
    public StreamObserver<StreamMessageRequest> streamChannel(StreamObserver<StreamMessageResponse> responses) {
        Stream stream = new Stream(responses);
        return new StreamObserver<>() {
            @Override
            public void onNext(StreamMessageRequest m) {
                switch (m.getUpdateCase()) {
                    case ARBITRATION -> arbitrate(stream, m.getArbitration());
                    case PACKET -> packetOut(stream, m.getPacket());
                    case DIGEST_ACK -> { } // digests are sent one per list and never held back for acks
                    default -> stream.send(streamError(Status.Code.UNIMPLEMENTED, "stream message " + m.getUpdateCase() + " is not supported", null));
                }
            }

            @Override
            public void onError(Throwable t) {
                leave(stream);
            }

            @Override
            public void onCompleted() {
                leave(stream);
                try {
                    responses.onCompleted();
                } catch (RuntimeException alreadyClosed) {
                    // nothing to close
                }
            }
        };
    }

    private void arbitrate(Stream stream, MasterArbitrationUpdate update) {
        if (update.getDeviceId() != deviceId) {
            fail(stream, Status.NOT_FOUND, "no device " + update.getDeviceId() + " (this switch is device " + deviceId + ")");
            return;
        }
        if (!update.getRole().getName().isEmpty()) {
            fail(stream, Status.UNIMPLEMENTED, "roles are not supported by p4sim (role '" + update.getRole().getName() + "')");
            return;
        }
        if (!update.hasElectionId()) {
            fail(stream, Status.INVALID_ARGUMENT, "arbitration without an election id");
            return;
        }
        var problem = arbitration.announce(stream, toBig(update.getElectionId()));
        if (problem.isPresent()) {
            fail(stream, Status.INVALID_ARGUMENT, problem.get());
            return;
        }
        announcePrimary();
    }

    /** Every stream learns the primary's election id; the primary gets OK, the others ALREADY_EXISTS. */
    private void announcePrimary() {
        BigInteger highest = arbitration.highest();
        for (Stream s : arbitration.streams()) {
            boolean primary = arbitration.isPrimary(s);
            s.send(StreamMessageResponse.newBuilder().setArbitration(MasterArbitrationUpdate.newBuilder().setDeviceId(deviceId)
                    .setElectionId(toUint128(highest))
                    .setStatus(com.google.rpc.Status.newBuilder()
                            .setCode(primary ? Status.Code.OK.value() : Status.Code.ALREADY_EXISTS.value())
                            .setMessage(primary ? "you are the primary" : "another client is the primary"))).build());
        }
    }

    private void leave(Stream stream) {
        boolean wasPrimary = arbitration.isPrimary(stream);
        arbitration.leave(stream);
        if (wasPrimary) {
            announcePrimary();
        }
    }

    private static void fail(Stream stream, Status status, String message) {
        synchronized (stream) {
            try {
                stream.out.onError(status.withDescription(message).asRuntimeException());
            } catch (RuntimeException alreadyClosed) {
                // nothing to report to
            }
        }
    }

    private void packetOut(Stream stream, PacketOut p) {
        if (!arbitration.isPrimary(stream)) {
            stream.send(streamError(Status.Code.PERMISSION_DENIED, "packet-out from a client that is not the primary", p));
            return;
        }
        byte[] frame;
        try {
            frame = withPacketOutHeader(p);
        } catch (P4RuntimeError e) {
            stream.send(streamError(e.code, e.getMessage(), p));
            return;
        }
        try {
            synchronized (lock) {
                sw.control().packetOut(frame);
            }
        } catch (ControlException e) {
            stream.send(streamError(Status.Code.FAILED_PRECONDITION, e.getMessage(), p));
        }
    }

    /** The payload behind the program's packet_out controller header, its fields filled from the metadata. */
    byte[] withPacketOutHeader(PacketOut p) {
        ControllerPacketMetadata header = index.packetOut;
        byte[] payload = p.getPayload().toByteArray();
        if (header == null) {
            if (p.getMetadataCount() > 0) {
                throw P4RuntimeError.invalid("packet-out metadata given, but the program has no @controller_header(\"packet_out\") header");
            }
            return payload;
        }
        BigInteger bits = BigInteger.ZERO;
        java.util.Map<Integer, ByteString> given = new java.util.HashMap<>();
        for (PacketMetadata m : p.getMetadataList()) {
            if (given.put(m.getMetadataId(), m.getValue()) != null) {
                throw P4RuntimeError.invalid("packet-out metadata id " + m.getMetadataId() + " given twice");
            }
        }
        for (ControllerPacketMetadata.Metadata f : header.getMetadataList()) {
            ByteString v = given.remove(f.getId());
            BigInteger value = v == null ? BigInteger.ZERO : Bytes.decode(v, f.getBitwidth(), "packet_out." + f.getName());
            bits = bits.shiftLeft(f.getBitwidth()).or(value);
        }
        if (!given.isEmpty()) {
            throw P4RuntimeError.invalid("packet_out has no metadata with id " + given.keySet().iterator().next());
        }
        int bytes = (ProgramIndex.totalBits(header) + 7) / 8;
        byte[] frame = new byte[bytes + payload.length];
        byte[] h = bits.toByteArray();
        int copy = Math.min(h.length, bytes);
        System.arraycopy(h, h.length - copy, frame, bytes - copy, copy);
        System.arraycopy(payload, 0, frame, bytes, payload.length);
        return frame;
    }

    private static StreamMessageResponse streamError(Status.Code code, String message, PacketOut p) {
        StreamError.Builder e = StreamError.newBuilder().setCanonicalCode(code.value()).setMessage(message);
        if (p != null) {
            e.setPacketOut(org.p4.v1.PacketOutError.newBuilder().setPacketOut(p));
        }
        return StreamMessageResponse.newBuilder().setError(e).build();
    }

    /** Runs on the packet path (lock held): the program's packet_in header becomes metadata, the rest payload. */
    private void packetIn(PacketIn p) {
        var primary = arbitration.primary();
        if (primary.isEmpty()) {
            return;
        }
        byte[] frame = p.frame();
        org.p4.v1.PacketIn.Builder b = org.p4.v1.PacketIn.newBuilder();
        ControllerPacketMetadata header = index.packetIn;
        int offset = 0;
        if (header != null) {
            int bytes = (ProgramIndex.totalBits(header) + 7) / 8;
            if (frame.length >= bytes) {
                BigInteger bits = new BigInteger(1, java.util.Arrays.copyOf(frame, bytes));
                int shift = bytes * 8;
                for (ControllerPacketMetadata.Metadata f : header.getMetadataList()) {
                    shift -= f.getBitwidth();
                    BigInteger v = bits.shiftRight(shift).and(BigInteger.ONE.shiftLeft(f.getBitwidth()).subtract(BigInteger.ONE));
                    b.addMetadata(PacketMetadata.newBuilder().setMetadataId(f.getId()).setValue(Bytes.encode(v)));
                }
                offset = bytes;
            }
        }
        b.setPayload(ByteString.copyFrom(frame, offset, frame.length - offset));
        primary.get().send(StreamMessageResponse.newBuilder().setPacket(b).build());
    }

    /** Runs on the packet path (lock held): a digest of a configured digest goes to the primary as a list of one. */
    private void digest(Digest d) {
        var primary = arbitration.primary();
        if (primary.isEmpty()) {
            return;
        }
        P4InfoBuilder.DigestSite site = null;
        for (P4InfoBuilder.DigestSite s : index.digestSites) {
            if (s.widths().size() == d.values().size() && (s.receiver() == d.receiver() || s.receiver() < 0)) {
                site = s;
                break;
            }
        }
        if (site == null) {
            return;
        }
        int id = index.digestIdByName.get(site.name());
        if (!writer.digestConfigs.containsKey(id)) {
            return;
        }
        P4StructLike.Builder members = P4StructLike.newBuilder();
        for (BigInteger v : d.values()) {
            members.addMembers(P4Data.newBuilder().setBitstring(Bytes.encode(v)));
        }
        primary.get().send(StreamMessageResponse.newBuilder().setDigest(DigestList.newBuilder().setDigestId(id)
                .setListId(digestListIds.incrementAndGet()).addData(P4Data.newBuilder().setStruct(members))
                .setTimestamp(System.nanoTime())).build());
    }
}
