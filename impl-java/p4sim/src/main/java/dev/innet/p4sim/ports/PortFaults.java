package dev.innet.p4sim.ports;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Faults on a live switch's output ports, set and changed at run time through the control port
 * ({@code p4sim_port_fault}, docs/p4sim.md): every frame leaving a faulty port is delayed, maybe
 * duplicated, maybe held back long enough for later frames to overtake it (reordering). This kernel has
 * no netem, so the Jepsen campaign's delay, duplication and reordering nemeses are made here.
 *
 * <p>Pure decisions, no I/O and no clock: {@link #plan} says after how many nanoseconds each copy of a
 * frame leaves, and the caller sends them. Each port draws from its own random stream, seeded by the
 * switch's seed and the port number and re-seeded when the port's setting changes, so the same settings
 * and the same frames give the same decisions. Thread-safe (the rx threads and the control port share it).
 */
public final class PortFaults {
    /**
     * One port's faults: every frame delayed {@code delayMicros}; with probability {@code dupPercent} %
     * sent twice; with probability {@code reorderPercent} % held back {@code holdMicros} more.
     */
    public record Setting(long delayMicros, int dupPercent, int reorderPercent, long holdMicros) {
        public static final long DEFAULT_HOLD_MICROS = 2_000;

        public Setting {
            if (delayMicros < 0 || holdMicros < 0 || dupPercent < 0 || dupPercent > 100 || reorderPercent < 0
                    || reorderPercent > 100) {
                throw new IllegalArgumentException("bad port fault: delay_us=" + delayMicros + " dup=" + dupPercent
                        + " reorder=" + reorderPercent + " hold_us=" + holdMicros
                        + " (times are non-negative, percentages 0..100)");
            }
        }

        boolean none() {
            return delayMicros == 0 && dupPercent == 0 && reorderPercent == 0;
        }

        @Override
        public String toString() {
            return "delay_us=" + delayMicros + " dup=" + dupPercent + " reorder=" + reorderPercent + " hold_us=" + holdMicros;
        }
    }

    private final long seed;
    private final Set<Integer> ports;
    private final Map<Integer, Setting> settings = new TreeMap<>();
    private final Map<Integer, SplittableRandom> randoms = new TreeMap<>();
    private final Map<Integer, Integer> changes = new TreeMap<>();
    private volatile boolean any;

    public PortFaults(long seed, Set<Integer> ports) {
        this.seed = seed;
        this.ports = new TreeSet<>(ports);
    }

    /** Whether some port has a fault: the fast path skips {@link #plan} when none has. */
    public boolean any() {
        return any;
    }

    public synchronized void set(int port, Setting s) {
        requirePort(port);
        if (s.none()) {
            settings.remove(port);
        } else {
            settings.put(port, s);
            int change = changes.merge(port, 1, Integer::sum);
            randoms.put(port, new SplittableRandom(seed * 1_000_003L + port * 7_919L + change));
        }
        any = !settings.isEmpty();
    }

    public synchronized Setting get(int port) {
        return settings.getOrDefault(port, new Setting(0, 0, 0, Setting.DEFAULT_HOLD_MICROS));
    }

    /**
     * When the copies of the next frame out of {@code port} leave, in nanoseconds from now: one entry,
     * {@code 0}, for a port without faults; two for a duplicated frame.
     */
    public synchronized long[] plan(int port) {
        Setting s = settings.get(port);
        if (s == null) {
            return new long[] {0};
        }
        SplittableRandom r = randoms.get(port);
        long at = s.delayMicros() * 1_000L;
        if (r.nextInt(100) < s.reorderPercent()) {
            at += s.holdMicros() * 1_000L;
        }
        if (r.nextInt(100) < s.dupPercent()) {
            // the copy goes right behind the original (or, held back, it may be overtaken too)
            return new long[] {at, at};
        }
        return new long[] {at};
    }

    /**
     * The control command's arguments (after {@code p4sim_port_fault}): {@code PORT|all clear},
     * {@code PORT|all [delay_us=N] [dup=P] [reorder=P] [hold_us=N]} (unnamed fields 0, hold 2000) or
     * {@code show}. Returns the reply's output lines; bad input throws IllegalArgumentException naming it.
     */
    public List<String> execute(String args) {
        String[] w = args.strip().isEmpty() ? new String[0] : args.strip().split("\\s+");
        if (w.length == 1 && w[0].equals("show")) {
            List<String> out = new ArrayList<>();
            synchronized (this) {
                settings.forEach((p, s) -> out.add("port " + p + " " + s));
            }
            return out;
        }
        if (w.length < 2) {
            throw new IllegalArgumentException(
                    "usage: p4sim_port_fault PORT|all clear | PORT|all [delay_us=N] [dup=P] [reorder=P] [hold_us=N] | show");
        }
        List<Integer> targets = w[0].equals("all") ? List.copyOf(ports) : List.of(parsePort(w[0]));
        Setting s;
        if (w.length == 2 && w[1].equals("clear")) {
            s = new Setting(0, 0, 0, Setting.DEFAULT_HOLD_MICROS);
        } else {
            long delay = 0;
            long hold = Setting.DEFAULT_HOLD_MICROS;
            int dup = 0;
            int reorder = 0;
            for (int i = 1; i < w.length; i++) {
                int eq = w[i].indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException("p4sim_port_fault: '" + w[i] + "' is not NAME=VALUE");
                }
                String name = w[i].substring(0, eq);
                long v = parseNumber(w[i], w[i].substring(eq + 1));
                switch (name) {
                    case "delay_us" -> delay = v;
                    case "hold_us" -> hold = v;
                    case "dup" -> dup = (int) Math.min(v, Integer.MAX_VALUE);
                    case "reorder" -> reorder = (int) Math.min(v, Integer.MAX_VALUE);
                    default -> throw new IllegalArgumentException("p4sim_port_fault: unknown setting '" + name
                            + "' (delay_us, dup, reorder, hold_us)");
                }
            }
            s = new Setting(delay, dup, reorder, hold);
        }
        for (int p : targets) {
            set(p, s);
        }
        return List.of();
    }

    private int parsePort(String text) {
        int p = (int) parseNumber(text, text);
        requirePort(p);
        return p;
    }

    private void requirePort(int port) {
        if (!ports.contains(port)) {
            throw new IllegalArgumentException("p4sim_port_fault: port " + port + " is not attached (ports " + ports + ")");
        }
    }

    private static long parseNumber(String where, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("p4sim_port_fault: '" + where + "': not a number");
        }
    }
}
