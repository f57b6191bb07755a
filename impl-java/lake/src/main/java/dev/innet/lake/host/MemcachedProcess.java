package dev.innet.lake.host;

import dev.innet.lake.wire.ByteString;
import dev.innet.lake.wire.McDatagram;
import dev.innet.lake.wire.McException;
import dev.innet.lake.wire.McFrame;
import dev.innet.lake.wire.McOpcode;
import dev.innet.lake.wire.McRequest;
import dev.innet.lake.wire.McResponse;
import dev.innet.lake.wire.McStatus;
import dev.innet.lake.wire.MemcachedUdpCodec;
import dev.innet.protocol.ExternalServer;
import java.util.ArrayList;
import java.util.List;

/**
 * The real memcached (Debian's {@code memcached}) as a live rack's server host runs it: UDP on
 * {@link MemcachedHost#MEMCACHED_PORT} at the host's rack address, TCP off, in the foreground (the
 * harness records its pid and stops it). Its health probe is a binary GET of {@link #SENTINEL_KEY},
 * a key LaKe never caches (only 16-byte keys are), so only memcached can answer it, through the switch.
 */
public final class MemcachedProcess implements ExternalServer {
    /** 12 bytes: not the 16 LaKe caches, so the probe always reaches memcached (lake.p4, LK-9). */
    public static final String SENTINEL_KEY = "innet-health";
    static final int PROBE_OPAQUE = 0x48454c54; // "HELT"
    static final int PROBE_REQUEST_ID = 0x4c4b;
    private final int memoryMegabytes;

    public MemcachedProcess() {
        this(64);
    }

    public MemcachedProcess(int memoryMegabytes) {
        if (memoryMegabytes < 1) {
            throw new IllegalArgumentException("memcached needs at least 1 MB, got " + memoryMegabytes);
        }
        this.memoryMegabytes = memoryMegabytes;
    }

    @Override
    public String program() {
        return "memcached";
    }

    @Override
    public String debianPackage() {
        return "memcached";
    }

    @Override
    public List<String> arguments(String address, boolean asRoot) {
        // -p 0: no TCP listener; -U: UDP (off by default since 1.5.6); -t 1: one worker thread, the
        // machine is small; memcached refuses to run as root unless told whom to become
        List<String> args = new ArrayList<>(List.of("-l", address, "-p", "0", "-U", Integer.toString(udpPort()),
                "-m", Integer.toString(memoryMegabytes), "-t", "1"));
        if (asRoot) {
            args.addAll(List.of("-u", "nobody"));
        }
        return args;
    }

    @Override
    public int udpPort() {
        return MemcachedHost.MEMCACHED_PORT;
    }

    @Override
    public byte[] probeRequest() {
        return MemcachedUdpCodec.encode(new McDatagram(McFrame.single(PROBE_REQUEST_ID),
                McRequest.get(ByteString.utf8(SENTINEL_KEY), PROBE_OPAQUE)));
    }

    /** memcached's answer to the probe: a GET response with the probe's opaque, a hit or "Not found". */
    @Override
    public boolean answersProbe(byte[] udpPayload) {
        try {
            McDatagram d = MemcachedUdpCodec.decode(udpPayload);
            return d.frame().requestId() == PROBE_REQUEST_ID && d.message() instanceof McResponse r
                    && r.opcode() == McOpcode.GET && r.opaque() == PROBE_OPAQUE
                    && (r.status() == McStatus.OK || r.status() == McStatus.KEY_NOT_FOUND);
        } catch (McException e) {
            return false;
        }
    }

    @Override
    public boolean durable() {
        return false;
    }

    /**
     * A restarted memcached is empty: LaKe invalidates the slots holding that server's keys and clears its
     * lookup table ({@link dev.innet.lake.controller.LakeSwitchOs#forgetServer}; docs/lake.md, Limits).
     */
    @Override
    public void forgetBeforeRestart(dev.innet.switchapi.SwitchControl control, int server,
            java.util.List<Integer> servers) {
        dev.innet.lake.controller.LakeSwitchOs.forgetServer(control, server, servers);
    }
}
