package dev.innet.p4sim.cli;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.Digest;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.PacketIn;
import dev.innet.switchapi.Replica;
import dev.innet.switchapi.SwitchControl;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * {@link SwitchControl} for a p4sim process, over its control port: bmv2 CLI commands where they
 * exist, p4sim_* extensions elsewhere, and a second connection streaming packet-ins and digests.
 * Thread-safe; subscriber callbacks run on the event reader thread.
 */
public final class RemoteSwitchControl implements SwitchControl, AutoCloseable {
    private final int port;
    private final CliClient cli;
    private final List<Consumer<PacketIn>> packetInSinks = new CopyOnWriteArrayList<>();
    private final List<Consumer<Digest>> digestSinks = new CopyOnWriteArrayList<>();
    private Socket events;

    public RemoteSwitchControl(int port) throws IOException {
        this.port = port;
        this.cli = new CliClient(port);
    }

    private synchronized List<String> cmd(String line) {
        try {
            return cli.command(line);
        } catch (IOException e) {
            throw new UncheckedIOException("p4sim control port " + port, e);
        }
    }

    private static String matchFields(List<Match> match, int priority) {
        StringBuilder sb = new StringBuilder();
        for (Match m : match) {
            sb.append(' ').append(CliSession.matchText(m));
        }
        return sb.append(" priority=").append(priority).toString();
    }

    private static String args(List<BigInteger> args) {
        StringBuilder sb = new StringBuilder(" =>");
        for (BigInteger a : args) {
            sb.append(" 0x").append(a.toString(16));
        }
        return sb.toString();
    }

    @Override
    public void addEntry(EntrySpec e) {
        cmd("p4sim_table_add " + e.table() + " " + e.action() + matchFields(e.match(), e.priority()) + args(e.args()));
    }

    @Override
    public void modifyEntry(EntrySpec e) {
        cmd("p4sim_table_modify " + e.table() + " " + e.action() + matchFields(e.match(), e.priority()) + args(e.args()));
    }

    @Override
    public void deleteEntry(String table, List<Match> match, int priority) {
        cmd("p4sim_table_delete " + table + matchFields(match, priority));
    }

    /** The number at the end of a "... has been created with handle N" reply. */
    private static int handleIn(List<String> reply) {
        String last = reply.isEmpty() ? "" : reply.get(reply.size() - 1);
        return Integer.parseInt(last.substring(last.lastIndexOf(' ') + 1));
    }

    private static String hexArgs(List<BigInteger> args) {
        StringBuilder sb = new StringBuilder();
        for (BigInteger a : args) {
            sb.append(" 0x").append(a.toString(16));
        }
        return sb.toString();
    }

    @Override
    public int actionProfileAddMember(String profile, String action, List<BigInteger> args) {
        return handleIn(cmd("act_prof_create_member " + profile + " " + action + hexArgs(args)));
    }

    @Override
    public void actionProfileModifyMember(String profile, int member, String action, List<BigInteger> args) {
        cmd("act_prof_modify_member " + profile + " " + action + " " + member + hexArgs(args));
    }

    @Override
    public void actionProfileDeleteMember(String profile, int member) {
        cmd("act_prof_delete_member " + profile + " " + member);
    }

    @Override
    public int actionProfileCreateGroup(String profile) {
        return handleIn(cmd("act_prof_create_group " + profile));
    }

    @Override
    public void actionProfileDeleteGroup(String profile, int group) {
        cmd("act_prof_delete_group " + profile + " " + group);
    }

    @Override
    public void actionProfileAddMemberToGroup(String profile, int member, int group) {
        cmd("act_prof_add_member_to_group " + profile + " " + member + " " + group);
    }

    @Override
    public void actionProfileRemoveMemberFromGroup(String profile, int member, int group) {
        cmd("act_prof_remove_member_from_group " + profile + " " + member + " " + group);
    }

    @Override
    public void addIndirectEntry(String table, List<Match> match, int priority, int handle, boolean group) {
        cmd("p4sim_table_indirect_add " + table + matchFields(match, priority) + " => " + (group ? "group " : "member ") + handle);
    }

    @Override
    public void setIndirectDefault(String table, int handle, boolean group) {
        cmd("table_indirect_set_default" + (group ? "_with_group " : " ") + table + " " + handle);
    }

    @Override
    public List<EntrySpec> readEntries(String table) {
        List<EntrySpec> out = new ArrayList<>();
        for (String line : cmd("p4sim_table_read " + table)) {
            out.add(parseEntry(table, line));
        }
        return out;
    }

    /** ACTION MATCH... priority=P => ARGS, with the table's match kinds implied by the syntax. */
    private static EntrySpec parseEntry(String table, String line) {
        String[] halves = line.split("=>", -1);
        String[] left = halves[0].strip().split("\\s+");
        List<Match> match = new ArrayList<>();
        int priority = 0;
        for (int i = 1; i < left.length; i++) {
            String t = left[i];
            if (t.startsWith("priority=")) {
                priority = Integer.parseInt(t.substring(9));
            } else if (t.equals("*")) {
                match.add(new Match.Wildcard());
            } else if (t.contains("&&&")) {
                String[] p = t.split("&&&");
                match.add(new Match.Ternary(CliValues.parse(p[0]), CliValues.parse(p[1])));
            } else if (t.contains("->")) {
                String[] p = t.split("->");
                match.add(new Match.Range(CliValues.parse(p[0]), CliValues.parse(p[1])));
            } else if (t.contains("/")) {
                String[] p = t.split("/");
                match.add(new Match.Lpm(CliValues.parse(p[0]), Integer.parseInt(p[1])));
            } else {
                match.add(new Match.Exact(CliValues.parse(t)));
            }
        }
        return new EntrySpec(table, match, priority, left[0], parseArgs(halves.length > 1 ? halves[1] : ""));
    }

    private static List<BigInteger> parseArgs(String text) {
        List<BigInteger> out = new ArrayList<>();
        for (String a : text.strip().split("\\s+")) {
            if (!a.isEmpty()) {
                out.add(CliValues.parse(a));
            }
        }
        return out;
    }

    @Override
    public void setDefaultAction(String table, String action, List<BigInteger> args) {
        StringBuilder sb = new StringBuilder("table_set_default " + table + " " + action);
        for (BigInteger a : args) {
            sb.append(" 0x").append(a.toString(16));
        }
        cmd(sb.toString());
    }

    @Override
    public EntrySpec readDefaultAction(String table) {
        String line = cmd("p4sim_table_default " + table).get(0);
        String[] halves = line.split("=>", -1);
        return new EntrySpec(table, List.of(), 0, halves[0].strip(), parseArgs(halves[1]));
    }

    @Override
    public void clearTable(String table) {
        cmd("table_clear " + table);
    }

    @Override
    public BigInteger registerRead(String register, int index) {
        return registerRead(register, index, index).get(0);
    }

    @Override
    public List<BigInteger> registerRead(String register, int from, int to) {
        List<BigInteger> out = new ArrayList<>();
        for (String v : cmd("p4sim_register_read " + register + " " + from + " " + to)) {
            out.add(CliValues.parse(v));
        }
        return out;
    }

    @Override
    public void registerWrite(String register, int index, BigInteger value) {
        registerWrite(register, index, index, value);
    }

    @Override
    public void registerWrite(String register, int from, int to, BigInteger value) {
        if (value.signum() < 0) {
            throw new ControlException("negative register value " + value);
        }
        cmd("p4sim_register_write " + register + " " + from + " " + to + " 0x" + value.toString(16));
    }

    @Override
    public void valueSetAdd(String valueSet, BigInteger value) {
        cmd("pvs_add " + valueSet + " " + valueSetValue(value));
    }

    @Override
    public void valueSetRemove(String valueSet, BigInteger value) {
        cmd("pvs_remove " + valueSet + " " + valueSetValue(value));
    }

    @Override
    public List<BigInteger> valueSetRead(String valueSet) {
        List<BigInteger> out = new java.util.ArrayList<>();
        for (String v : cmd("pvs_get " + valueSet)) {
            out.add(new BigInteger(v, 16)); // pvs_get prints bytes in hex, as bmv2's CLI
        }
        return out;
    }

    @Override
    public void valueSetClear(String valueSet) {
        cmd("pvs_clear " + valueSet);
    }

    private static String valueSetValue(BigInteger value) {
        if (value.signum() < 0) {
            throw new ControlException("negative value set member " + value);
        }
        return "0x" + value.toString(16);
    }

    @Override
    public void registerReset(String register) {
        cmd("register_reset " + register);
    }

    @Override
    public CounterValue counterRead(String counter, int index) {
        String[] v = cmd("p4sim_counter_read " + counter + " " + index).get(0).split(" ");
        return new CounterValue(Long.parseLong(v[0]), Long.parseLong(v[1]));
    }

    @Override
    public void counterWrite(String counter, int index, CounterValue value) {
        cmd("counter_write " + counter + " " + index + " " + value.packets() + " " + value.bytes());
    }

    @Override
    public void counterReset(String counter) {
        cmd("counter_reset " + counter);
    }

    @Override
    public CounterValue directCounterRead(String table, List<Match> match, int priority) {
        String[] v = cmd("p4sim_direct_counter_read " + table + matchFields(match, priority)).get(0).split(" ");
        return new CounterValue(Long.parseLong(v[0]), Long.parseLong(v[1]));
    }

    private static String rates(dev.innet.switchapi.MeterConfig c) {
        return c.committedRate() + ":" + c.committedBurst() + " " + c.peakRate() + ":" + c.peakBurst();
    }

    @Override
    public void meterSet(String meter, int index, dev.innet.switchapi.MeterConfig config) {
        cmd("meter_set_rates " + meter + " " + index + " " + rates(config));
    }

    @Override
    public dev.innet.switchapi.MeterConfig meterRead(String meter, int index) {
        List<String> lines = cmd("meter_get_rates " + meter + " " + index);
        if (lines.isEmpty()) {
            return null;
        }
        double[] rate = new double[2];
        long[] burst = new long[2];
        for (int i = 0; i < 2; i++) {
            String l = lines.get(i);
            rate[i] = Double.parseDouble(l.substring(l.indexOf("rate = ") + 7, l.indexOf(',')));
            burst[i] = Long.parseLong(l.substring(l.indexOf("size = ") + 7).strip());
        }
        return new dev.innet.switchapi.MeterConfig(rate[0], burst[0], rate[1], burst[1]);
    }

    @Override
    public void directMeterSet(String table, List<Match> match, int priority, dev.innet.switchapi.MeterConfig config) {
        cmd("p4sim_direct_meter_set " + table + " " + rates(config) + matchFields(match, priority));
    }

    @Override
    public void multicastGroupSet(int group, List<Replica> replicas) {
        StringBuilder sb = new StringBuilder("p4sim_mc_group_set " + group);
        for (Replica r : replicas) {
            sb.append(' ').append(r.port()).append(':').append(r.rid());
        }
        cmd(sb.toString());
    }

    @Override
    public void multicastGroupDelete(int group) {
        cmd("p4sim_mc_group_delete " + group);
    }

    @Override
    public void cloneSessionSet(int session, int port) {
        cmd("mirroring_add " + session + " " + port);
    }

    @Override
    public void cloneSessionDelete(int session) {
        cmd("mirroring_delete " + session);
    }

    @Override
    public void packetOut(byte[] frame) {
        cmd("p4sim_packet_out " + HexFormat.of().formatHex(frame));
    }

    @Override
    public void onPacketIn(Consumer<PacketIn> sink) {
        packetInSinks.add(sink);
        ensureEvents();
    }

    @Override
    public void onDigest(Consumer<Digest> sink) {
        digestSinks.add(sink);
        ensureEvents();
    }

    private synchronized void ensureEvents() {
        if (events != null) {
            return;
        }
        try {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8);
            out.print("p4sim_events\n");
            out.flush();
            if (!"ok".equals(in.readLine())) {
                s.close();
                throw new ControlException("control port refused the event stream");
            }
            events = s;
            Thread.ofPlatform().daemon().name("p4sim-events-" + port).start(() -> readEvents(in));
        } catch (IOException e) {
            throw new UncheckedIOException("p4sim control port " + port, e);
        }
    }

    private void readEvents(BufferedReader in) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                String[] w = line.split(" ");
                if (w[0].equals("packet_in") && w.length == 2) {
                    PacketIn p = new PacketIn(HexFormat.of().parseHex(w[1]));
                    packetInSinks.forEach(c -> c.accept(p));
                } else if (w[0].equals("digest") && w.length >= 2) {
                    List<BigInteger> values = new ArrayList<>();
                    for (int i = 2; i < w.length; i++) {
                        values.add(CliValues.parse(w[i]));
                    }
                    Digest d = new Digest(Integer.parseInt(w[1]), values);
                    digestSinks.forEach(c -> c.accept(d));
                }
            }
        } catch (IOException e) {
            // connection closed
        }
    }

    @Override
    public synchronized void close() throws IOException {
        cli.close();
        if (events != null) {
            events.close();
        }
    }
}
