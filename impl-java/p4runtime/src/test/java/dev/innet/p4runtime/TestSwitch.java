package dev.innet.p4runtime;

import com.google.protobuf.ByteString;
import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import dev.innet.p4sim.v1model.SwitchConfig;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.StatusProto;
import io.grpc.stub.StreamObserver;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.p4.config.v1.P4Info;
import org.p4.v1.Entity;
import org.p4.v1.MasterArbitrationUpdate;
import org.p4.v1.P4RuntimeGrpc;
import org.p4.v1.ReadRequest;
import org.p4.v1.StreamMessageRequest;
import org.p4.v1.StreamMessageResponse;
import org.p4.v1.Uint128;
import org.p4.v1.Update;
import org.p4.v1.WriteRequest;

/** A test program (src/test/resources/p4rt.p4 unless another is named) on a p4sim switch with CPU port 64, served over loopback. */
final class TestSwitch implements AutoCloseable {
    static final long DEVICE = 1;
    final P4Sim.Program program;
    final P4Switch sw;
    final P4RuntimeServer server;
    final ManagedChannel channel;
    final P4RuntimeGrpc.P4RuntimeBlockingStub stub;
    final P4Info p4info;

    TestSwitch() throws Exception {
        this("/p4rt.p4");
    }

    /** A test program of src/test/resources, e.g. {@code /p4rt_profiles.p4}. */
    TestSwitch(String resource) throws Exception {
        Path source = Path.of(TestSwitch.class.getResource(resource).toURI());
        program = P4Sim.compile(source);
        sw = program.instantiate(SwitchConfig.defaults().withCpuPort(64).withSpecialization(false));
        server = P4RuntimeServer.start("127.0.0.1", 0, DEVICE, program, Files.readAllBytes(source), sw, sw);
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
        stub = P4RuntimeGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        p4info = server.p4info();
    }

    int tableId(String alias) {
        return p4info.getTablesList().stream().filter(t -> t.getPreamble().getAlias().equals(alias)).findFirst().orElseThrow()
                .getPreamble().getId();
    }

    int actionId(String alias) {
        return p4info.getActionsList().stream().filter(a -> a.getPreamble().getAlias().equals(alias)).findFirst().orElseThrow()
                .getPreamble().getId();
    }

    static Uint128 election(long low) {
        return Uint128.newBuilder().setLow(low).build();
    }

    /** A StreamChannel client: what the server sends lands in {@link #received}. */
    final class Client implements AutoCloseable {
        final LinkedBlockingQueue<StreamMessageResponse> received = new LinkedBlockingQueue<>();
        final LinkedBlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        final StreamObserver<StreamMessageRequest> requests;

        Client() {
            requests = P4RuntimeGrpc.newStub(channel).streamChannel(new StreamObserver<>() {
                @Override
                public void onNext(StreamMessageResponse r) {
                    received.add(r);
                }

                @Override
                public void onError(Throwable t) {
                    errors.add(t);
                }

                @Override
                public void onCompleted() { }
            });
        }

        /** Sends an arbitration update and returns the server's answer to it. */
        MasterArbitrationUpdate arbitrate(long electionLow) throws InterruptedException {
            synchronized (requests) {
                requests.onNext(StreamMessageRequest.newBuilder().setArbitration(MasterArbitrationUpdate.newBuilder()
                        .setDeviceId(DEVICE).setElectionId(election(electionLow))).build());
            }
            StreamMessageResponse r = next();
            if (!r.hasArbitration()) {
                throw new AssertionError("expected an arbitration answer, got " + r);
            }
            return r.getArbitration();
        }

        StreamMessageResponse next() throws InterruptedException {
            StreamMessageResponse r = received.poll(10, TimeUnit.SECONDS);
            if (r == null) {
                throw new AssertionError("nothing received on the stream in 10 s (errors: " + errors + ")");
            }
            return r;
        }

        void send(StreamMessageRequest m) {
            synchronized (requests) {
                requests.onNext(m);
            }
        }

        private boolean closed;

        @Override
        public void close() {
            synchronized (requests) {
                if (!closed) {
                    closed = true;
                    requests.onCompleted();
                }
            }
        }
    }

    WriteRequest.Builder write(long election, Update... updates) {
        return WriteRequest.newBuilder().setDeviceId(DEVICE).setElectionId(election(election)).addAllUpdates(List.of(updates));
    }

    static Update update(Update.Type type, Entity e) {
        return Update.newBuilder().setType(type).setEntity(e).build();
    }

    List<Entity> read(Entity query) {
        List<Entity> out = new ArrayList<>();
        stub.read(ReadRequest.newBuilder().setDeviceId(DEVICE).addEntities(query).build()).forEachRemaining(r -> out.addAll(r.getEntitiesList()));
        return out;
    }

    /** The per-update errors of a failed Write (P4Runtime's details). */
    static List<org.p4.v1.Error> details(StatusRuntimeException e) throws Exception {
        com.google.rpc.Status st = StatusProto.fromThrowable(e);
        List<org.p4.v1.Error> out = new ArrayList<>();
        if (st != null) {
            for (var any : st.getDetailsList()) {
                out.add(any.unpack(org.p4.v1.Error.class));
            }
        }
        return out;
    }

    static ByteString bytes(long v) {
        return Bytes.encode(BigInteger.valueOf(v));
    }

    @Override
    public void close() throws Exception {
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
        server.close();
    }
}
