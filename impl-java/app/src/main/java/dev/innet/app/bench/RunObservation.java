package dev.innet.app.bench;

import dev.innet.rack.SwitchTraffic.Tally;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one simulated rack run did in its measured window, in the terms the cost model charges for: per
 * server, the frames it received and sent by innet op (with bytes); the clients' and the controller's
 * frames; the switch's pipeline passes, recirculations and clones; the operations completed and how many
 * the switch answered. Nothing here depends on which protocol ran.
 */
public record RunObservation(String protocol, String workload, int servers, long operations, long switchAnswered,
        long reads, long writes, List<HostTraffic> serverTraffic, HostTraffic clientTraffic,
        HostTraffic controllerTraffic, long switchPasses, long recirculated, long cloned) {

    /** Frames a host (or a group of hosts) sent to the switch and received from it, by op. */
    public record HostTraffic(Map<Integer, Tally> sent, Map<Integer, Tally> received) {
        /** What this host did since {@code earlier} (counters only grow). */
        public HostTraffic minus(HostTraffic earlier) {
            return new HostTraffic(diff(sent, earlier.sent), diff(received, earlier.received));
        }

        private static Map<Integer, Tally> diff(Map<Integer, Tally> now, Map<Integer, Tally> then) {
            Map<Integer, Tally> out = new TreeMap<>();
            now.forEach((op, t) -> {
                Tally before = then.get(op);
                Tally d = new Tally();
                d.frames = t.frames - (before == null ? 0 : before.frames);
                d.bytes = t.bytes - (before == null ? 0 : before.bytes);
                if (d.frames != 0) {
                    out.put(op, d);
                }
            });
            return out;
        }

        public long framesReceived() {
            return received.values().stream().mapToLong(t -> t.frames).sum();
        }

        public long framesSent() {
            return sent.values().stream().mapToLong(t -> t.frames).sum();
        }

        public long bytes() {
            return sent.values().stream().mapToLong(t -> t.bytes).sum()
                    + received.values().stream().mapToLong(t -> t.bytes).sum();
        }

        public long received(int op) {
            Tally t = received.get(op);
            return t == null ? 0 : t.frames;
        }

        public long sent(int op) {
            Tally t = sent.get(op);
            return t == null ? 0 : t.frames;
        }
    }

    /** One line of what the run did: operations, switch answers, frames per op at servers and controller. */
    public String describe() {
        Map<Integer, Long> atServers = new TreeMap<>();
        Map<Integer, Long> fromServers = new TreeMap<>();
        for (HostTraffic h : serverTraffic) {
            h.received().forEach((op, t) -> atServers.merge(op, t.frames, Long::sum));
            h.sent().forEach((op, t) -> fromServers.merge(op, t.frames, Long::sum));
        }
        StringBuilder b = new StringBuilder(String.format("%s %s %d servers: %d ops (%d reads, %d writes), switch answered"
                + " %d, passes %d, recirculated %d, cloned %d; servers received", protocol, workload, servers, operations,
                reads, writes, switchAnswered, switchPasses, recirculated, cloned));
        atServers.forEach((op, n) -> b.append(String.format(" 0x%02x:%d", op, n)));
        b.append("; servers sent");
        fromServers.forEach((op, n) -> b.append(String.format(" 0x%02x:%d", op, n)));
        b.append("; controller received");
        controllerTraffic.received().forEach((op, t) -> b.append(String.format(" 0x%02x:%d", op, t.frames)));
        b.append(", sent");
        controllerTraffic.sent().forEach((op, t) -> b.append(String.format(" 0x%02x:%d", op, t.frames)));
        return b.toString();
    }

    public double hitRatio() {
        return operations == 0 ? 0 : switchAnswered / (double) operations;
    }

    /** Requests the busiest server received (the old benchmark's measure). */
    public long busiestServerFrames() {
        return serverTraffic.stream().mapToLong(HostTraffic::framesReceived).max().orElse(0);
    }
}
