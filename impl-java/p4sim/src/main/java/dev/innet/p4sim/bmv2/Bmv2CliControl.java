package dev.innet.p4sim.bmv2;

import dev.innet.p4sim.stf.StfRunner;
import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MeterConfig;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import dev.innet.switchapi.SwitchControl;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link SwitchControl} for bmv2, through one long-running {@code simple_switch_CLI --thrift-port N}: each call
 * writes bmv2 runtime-CLI commands to its standard input and reads the output up to the next
 * {@code RuntimeCmd: } prompt. Only the commands bmv2's own CLI has are used (p4sim's CLI port answers them
 * the same way, which is how this class is tested without bmv2).
 *
 * <p>bmv2 addresses entries by handle; the control API by match. Handles come from {@code table_add}'s reply
 * and, for entries this object did not add (a restarted controller), from {@code table_dump}, which is also
 * how tables are read. Priorities are converted as p4sim's CLI converts them (bmv2: smaller wins).
 * simple_switch_CLI reports a refused command on its output and goes on, so refusals are recognised by
 * bmv2's message shapes ({@code Error: ...}, {@code Invalid ...}, exceptions, unknown syntax).
 *
 * <p>Not available through bmv2's CLI, and refused with a {@link ControlException} naming the reason:
 * packet-out, packet-in and digests (bmv2 serves them over P4Runtime or its CPU port), multicast groups,
 * and direct counters and meters.
 */
public final class Bmv2CliControl implements SwitchControl, AutoCloseable {
    static final String PROMPT = "RuntimeCmd: ";
    private static final Pattern ERROR = Pattern.compile(
            "^(Error|Invalid|\\*\\*\\* Unknown syntax|.*Exception|.*[Ee]rror:)", Pattern.MULTILINE);
    private static final Pattern HANDLE = Pattern.compile("added with handle (\\d+)");
    private static final Pattern CELL = Pattern.compile("\\]=\\s*(\\d+)");
    private static final Pattern COUNTER = Pattern.compile("packets=(\\d+), bytes=(\\d+)");
    private static final Pattern RATE = Pattern.compile("info rate = ([0-9.eE+-]+), burst size = (\\d+)");

    private final Process cli;
    private final OutputStream in;
    private final InputStream out;
    /** Entry handles by (table, match, priority), as bmv2 numbered them. */
    private final Map<EntryKey, Integer> handles = new HashMap<>();

    private record EntryKey(String table, List<Match> match, int priority) { }

    /** Starts {@code cli --thrift-port thriftPort} and waits for its first prompt. */
    public Bmv2CliControl(Path cli, int thriftPort) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cli.toString(), "--thrift-port", Integer.toString(thriftPort));
        pb.redirectErrorStream(true);
        // Python block-buffers a pipe: without this the prompt that ends each reply would never arrive
        pb.environment().put("PYTHONUNBUFFERED", "1");
        this.cli = pb.start();
        this.in = this.cli.getOutputStream();
        this.out = this.cli.getInputStream();
        String banner = readToPrompt();
        if (!banner.endsWith(PROMPT)) {
            // its output ended without a prompt: it exited (no switch on the port, a bad argument, ...)
            this.cli.destroy();
            throw new IOException("simple_switch_CLI --thrift-port " + thriftPort + " exited: " + banner.strip());
        }
    }

    /** One CLI command; its output lines (the prompt removed). A refusal is a {@link ControlException}. */
    public synchronized List<String> run(String command) {
        try {
            in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            String reply = readToPrompt();
            if (!reply.endsWith(PROMPT)) {
                throw new ControlException(command + ": simple_switch_CLI exited: " + reply.strip());
            }
            String text = reply.substring(0, reply.length() - PROMPT.length());
            Matcher bad = ERROR.matcher(text);
            if (bad.find()) {
                throw new ControlException(command + ": " + text.strip().replace('\n', ' '));
            }
            List<String> lines = new ArrayList<>();
            for (String l : text.split("\n")) {
                if (!l.isBlank()) {
                    lines.add(l);
                }
            }
            return lines;
        } catch (IOException e) {
            throw new ControlException(command + ": simple_switch_CLI: " + e.getMessage());
        }
    }

    /** Reads until the output ends with a prompt at the start of a line, or the process ends. */
    private String readToPrompt() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = out.read()) >= 0) {
            sb.append((char) c);
            int n = sb.length();
            if (c == ' ' && n >= PROMPT.length() && sb.lastIndexOf(PROMPT) == n - PROMPT.length()
                    && (n == PROMPT.length() || sb.charAt(n - PROMPT.length() - 1) == '\n')) {
                break;
            }
        }
        return sb.toString();
    }

    @Override
    public synchronized void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // the process is going away either way
        }
        cli.destroy();
    }

    // ------------------------------------------------------------------ tables

    static String matchText(Match m) {
        return switch (m) {
            case Match.Exact e -> hex(e.value());
            case Match.Lpm l -> hex(l.value()) + "/" + l.prefixLength();
            case Match.Ternary t -> hex(t.value()) + "&&&" + hex(t.mask());
            case Match.Range r -> hex(r.lo()) + "->" + hex(r.hi());
            case Match.Wildcard w -> "0&&&0";
        };
    }

    private static String hex(BigInteger v) {
        return "0x" + v.toString(16);
    }

    private static String joined(List<BigInteger> values) {
        StringBuilder sb = new StringBuilder();
        for (BigInteger v : values) {
            sb.append(' ').append(hex(v));
        }
        return sb.toString();
    }

    private static String matchText(List<Match> match) {
        StringBuilder sb = new StringBuilder();
        for (Match m : match) {
            sb.append(' ').append(matchText(m));
        }
        return sb.toString();
    }

    @Override
    public synchronized void addEntry(EntrySpec e) {
        String priority = e.priority() > 0 ? " " + (StfRunner.BMV2_PRIORITY_LIMIT - e.priority()) : "";
        List<String> reply = run("table_add " + e.table() + " " + e.action() + matchText(e.match()) + " =>"
                + joined(e.args()) + priority);
        for (String l : reply) {
            Matcher m = HANDLE.matcher(l);
            if (m.find()) {
                handles.put(new EntryKey(e.table(), e.match(), e.priority()), Integer.parseInt(m.group(1)));
                return;
            }
        }
        throw new ControlException("table_add " + e.table() + ": no entry handle in the reply " + reply);
    }

    private int handleOf(String table, List<Match> match, int priority) {
        EntryKey key = new EntryKey(table, match, priority);
        if (!handles.containsKey(key)) {
            readEntries(table); // entries another controller (or an earlier run) added
        }
        Integer h = handles.get(key);
        if (h == null) {
            throw new ControlException("table " + table + " has no entry " + match + (priority > 0 ? " priority " + priority : ""));
        }
        return h;
    }

    @Override
    public synchronized void modifyEntry(EntrySpec e) {
        int h = handleOf(e.table(), e.match(), e.priority());
        run("table_modify " + e.table() + " " + e.action() + " " + h + joined(e.args()));
    }

    @Override
    public synchronized void deleteEntry(String table, List<Match> match, int priority) {
        int h = handleOf(table, match, priority);
        run("table_delete " + table + " " + h);
        handles.remove(new EntryKey(table, match, priority));
    }

    @Override
    public synchronized List<EntrySpec> readEntries(String table) {
        Bmv2TableDump dump = Bmv2TableDump.parse(table, run("table_dump " + table));
        handles.keySet().removeIf(k -> k.table().equals(table));
        for (Bmv2TableDump.Entry e : dump.entries()) {
            handles.put(new EntryKey(table, e.spec().match(), e.spec().priority()), e.handle());
        }
        return dump.entries().stream().map(Bmv2TableDump.Entry::spec).toList();
    }

    @Override
    public synchronized void setDefaultAction(String table, String action, List<BigInteger> args) {
        run("table_set_default " + table + " " + action + joined(args));
    }

    @Override
    public synchronized EntrySpec readDefaultAction(String table) {
        return Bmv2TableDump.parse(table, run("table_dump " + table)).defaultAction();
    }

    @Override
    public synchronized void clearTable(String table) {
        run("table_clear " + table);
        handles.keySet().removeIf(k -> k.table().equals(table));
    }

    // ------------------------------------------------------------------ registers, counters, meters

    @Override
    public BigInteger registerRead(String register, int index) {
        for (String l : run("register_read " + register + " " + index)) {
            Matcher m = CELL.matcher(l);
            if (m.find()) {
                return new BigInteger(m.group(1));
            }
        }
        throw new ControlException("register_read " + register + " " + index + ": no value in the reply");
    }

    @Override
    public List<BigInteger> registerRead(String register, int from, int to) {
        if (from > to) {
            throw new ControlException("register range " + from + ".." + to + " is empty");
        }
        // bmv2 prints the whole array as "NAME= v0, v1, ..."
        for (String l : run("register_read " + register)) {
            int eq = l.indexOf("= ");
            if (l.startsWith(register) && eq > 0) {
                String[] cells = l.substring(eq + 2).split(",\\s*");
                if (to >= cells.length) {
                    throw new ControlException("register " + register + " has " + cells.length + " cells, asked " + from + ".." + to);
                }
                List<BigInteger> values = new ArrayList<>();
                for (int i = from; i <= to; i++) {
                    values.add(new BigInteger(cells[i].strip()));
                }
                return values;
            }
        }
        throw new ControlException("register_read " + register + ": no values in the reply");
    }

    @Override
    public void registerWrite(String register, int index, BigInteger value) {
        run("register_write " + register + " " + index + " " + value);
    }

    @Override
    public synchronized void registerWrite(String register, int from, int to, BigInteger value) {
        // bmv2's CLI writes one cell per command
        for (int i = from; i <= to; i++) {
            registerWrite(register, i, value);
        }
    }

    @Override
    public void registerReset(String register) {
        run("register_reset " + register);
    }

    @Override
    public CounterValue counterRead(String counter, int index) {
        for (String l : run("counter_read " + counter + " " + index)) {
            Matcher m = COUNTER.matcher(l);
            if (m.find()) {
                return new CounterValue(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
            }
        }
        throw new ControlException("counter_read " + counter + " " + index + ": no value in the reply");
    }

    @Override
    public void counterWrite(String counter, int index, CounterValue value) {
        run("counter_write " + counter + " " + index + " " + value.packets() + " " + value.bytes());
    }

    @Override
    public void counterReset(String counter) {
        run("counter_reset " + counter);
    }

    @Override
    public CounterValue directCounterRead(String table, List<Match> match, int priority) {
        throw new ControlException("direct counters are not driven through bmv2's CLI by innet (docs/ptf.md)");
    }

    @Override
    public void meterSet(String meter, int index, MeterConfig c) {
        run(String.format(Locale.ROOT, "meter_set_rates %s %d %s:%d %s:%d", meter, index,
                c.committedRate(), c.committedBurst(), c.peakRate(), c.peakBurst()));
    }

    @Override
    public MeterConfig meterRead(String meter, int index) {
        List<double[]> rates = new ArrayList<>();
        for (String l : run("meter_get_rates " + meter + " " + index)) {
            Matcher m = RATE.matcher(l);
            if (m.find()) {
                rates.add(new double[] {Double.parseDouble(m.group(1)), Long.parseLong(m.group(2))});
            }
        }
        if (rates.isEmpty()) {
            return null;
        }
        if (rates.size() != 2) {
            throw new ControlException("meter_get_rates " + meter + " " + index + ": expected two rates, got " + rates.size());
        }
        return new MeterConfig(rates.get(0)[0], (long) rates.get(0)[1], rates.get(1)[0], (long) rates.get(1)[1]);
    }

    @Override
    public void directMeterSet(String table, List<Match> match, int priority, MeterConfig config) {
        throw new ControlException("direct meters are not driven through bmv2's CLI by innet (docs/ptf.md)");
    }

    // ------------------------------------------------------------------ replication, packet I/O

    @Override
    public void multicastGroupSet(int group, List<Replica> replicas) {
        throw new ControlException("multicast groups are not driven through bmv2's CLI by innet (docs/ptf.md)");
    }

    @Override
    public void multicastGroupDelete(int group) {
        throw new ControlException("multicast groups are not driven through bmv2's CLI by innet (docs/ptf.md)");
    }

    @Override
    public void cloneSessionSet(int session, int port) {
        run("mirroring_add " + session + " " + port);
    }

    @Override
    public void cloneSessionDelete(int session) {
        run("mirroring_delete " + session);
    }

    @Override
    public void packetOut(byte[] frame) {
        throw new ControlException("bmv2's CLI has no packet-out: send the frame into the CPU port's interface");
    }

    @Override
    public void onPacketIn(Consumer<PacketIn> sink) {
        throw new ControlException("bmv2's CLI has no packet-in: read the CPU port's interface");
    }

    @Override
    public void onDigest(Consumer<Digest> sink) {
        throw new ControlException("bmv2's CLI has no digests (bmv2 sends them over nanomsg or P4Runtime)");
    }
}
