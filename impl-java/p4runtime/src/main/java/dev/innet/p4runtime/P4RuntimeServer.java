package dev.innet.p4runtime;

import dev.innet.p4sim.P4Sim;
import dev.innet.p4sim.v1model.P4Switch;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.p4.config.v1.P4Info;

/** A P4Runtime gRPC server for one p4sim switch, on a TCP port (0: any free port). */
public final class P4RuntimeServer implements AutoCloseable {
    private final Server server;
    private final P4RuntimeService service;

    private P4RuntimeServer(Server server, P4RuntimeService service) {
        this.server = server;
        this.service = service;
    }

    /**
     * Serves {@code sw} (running {@code program}, whose source text {@code deviceConfig} is what
     * GetForwardingPipelineConfig returns) as device {@code deviceId}; calls into the switch hold {@code lock}.
     * {@code host} is the address to bind (for example 127.0.0.1 or 0.0.0.0).
     */
    public static P4RuntimeServer start(String host, int port, long deviceId, P4Sim.Program program, byte[] deviceConfig,
                                        P4Switch sw, Object lock) throws IOException {
        P4RuntimeService service = new P4RuntimeService(deviceId, program, deviceConfig, sw, lock);
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .addService(service)
                .maxInboundMessageSize(64 << 20)
                .build()
                .start();
        return new P4RuntimeServer(server, service);
    }

    public int port() {
        return server.getPort();
    }

    public P4Info p4info() {
        return service.p4info();
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
    }
}
