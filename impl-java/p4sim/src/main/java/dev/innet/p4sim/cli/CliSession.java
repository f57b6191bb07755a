package dev.innet.p4sim.cli;

import dev.innet.switchapi.ControlException;
import dev.innet.switchapi.CounterValue;
import dev.innet.switchapi.EntrySpec;
import dev.innet.switchapi.Match;
import dev.innet.switchapi.MulticastBuilder;
import dev.innet.switchapi.SwitchControl;
import dev.innet.p4sim.runtime.ActionRuntime;
import dev.innet.p4sim.runtime.TableRuntime;
import dev.innet.p4sim.stf.StfRunner;
import dev.innet.p4sim.v1model.P4Switch;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes the text commands of bmv2's runtime CLI (simple_switch_CLI) against a p4sim switch, so the
 * same command files ({@code sN-commands.txt}) drive both. Entry handles are numbered per table as bmv2
 * numbers them ({@link EntryHandles}). Priorities follow bmv2 (smaller value wins) and are converted to the control API's.
 * Each command either succeeds or throws {@link ControlException} having changed nothing.
 */
public final class CliSession {
    private final P4Switch sw;
    private final SwitchControl control;
    private final MulticastBuilder multicast;
    /** Entry handles per table (by qualified name), numbered as bmv2 numbers them. */
    private final Map<String, EntryHandles<EntryRef>> handles = new LinkedHashMap<>();

    private record EntryRef(String table, List<Match> match, int priority) { }

    public CliSession(P4Switch sw) {
        this.sw = sw;
        this.control = sw.control();
        this.multicast = new MulticastBuilder(control);
    }

    public SwitchControl control() {
        return control;
    }

    /** Runs one command line; returns its output lines (possibly none). Blank lines and # comments do nothing. */
    public List<String> execute(String line) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
            return List.of();
        }
        String[] w = l.split("\\s+");
        List<String> out = new ArrayList<>();
        switch (w[0]) {
            case "table_add" -> out.add(tableAdd(l));
            case "table_delete" -> {
                need(w, 3, "table_delete <table> <handle>");
                EntryRef ref = handle(w[1], w[2]);
                control.deleteEntry(ref.table(), ref.match(), ref.priority());
                handlesOf(w[1]).release(CliValues.parseInt(w[2], "handle"));
            }
            case "table_modify" -> {
                need(w, 4, "table_modify <table> <action> <handle> [params]");
                EntryRef ref = handle(w[1], w[3]);
                TableRuntime t = sw.tableRuntime(w[1]);
                ActionRuntime a = action(t, w[2]);
                control.modifyEntry(new EntrySpec(w[1], ref.match(), ref.priority(), w[2],
                        params(a, Arrays.asList(w).subList(4, w.length))));
            }
            case "table_set_default" -> {
                need(w, 3, "table_set_default <table> <action> [params]");
                ActionRuntime a = action(sw.tableRuntime(w[1]), w[2]);
                control.setDefaultAction(w[1], w[2], params(a, Arrays.asList(w).subList(3, w.length)));
            }
            case "table_clear" -> {
                need(w, 2, "table_clear <table>");
                control.clearTable(w[1]);
                handlesOf(w[1]).clear();
            }
            case "act_prof_create_member" -> {
                need(w, 3, "act_prof_create_member <action profile> <action> [action parameters]");
                ActionRuntime a = profileAction(w[1], w[2]);
                int h = control.actionProfileAddMember(w[1], w[2], params(a, Arrays.asList(w).subList(3, w.length)));
                out.add("Member has been created with handle " + h);
            }
            case "act_prof_modify_member" -> {
                need(w, 4, "act_prof_modify_member <action profile> <action> <member handle> [action parameters]");
                ActionRuntime a = profileAction(w[1], w[2]);
                control.actionProfileModifyMember(w[1], CliValues.parseInt(w[3], "member handle"), w[2],
                        params(a, Arrays.asList(w).subList(4, w.length)));
            }
            case "act_prof_delete_member" -> {
                need(w, 3, "act_prof_delete_member <action profile> <member handle>");
                control.actionProfileDeleteMember(w[1], CliValues.parseInt(w[2], "member handle"));
            }
            case "act_prof_create_group" -> {
                need(w, 2, "act_prof_create_group <action profile>");
                out.add("Group has been created with handle " + control.actionProfileCreateGroup(w[1]));
            }
            case "act_prof_delete_group" -> {
                need(w, 3, "act_prof_delete_group <action profile> <group handle>");
                control.actionProfileDeleteGroup(w[1], CliValues.parseInt(w[2], "group handle"));
            }
            case "act_prof_add_member_to_group" -> {
                need(w, 4, "act_prof_add_member_to_group <action profile> <member handle> <group handle>");
                control.actionProfileAddMemberToGroup(w[1], CliValues.parseInt(w[2], "member handle"),
                        CliValues.parseInt(w[3], "group handle"));
            }
            case "act_prof_remove_member_from_group" -> {
                need(w, 4, "act_prof_remove_member_from_group <action profile> <member handle> <group handle>");
                control.actionProfileRemoveMemberFromGroup(w[1], CliValues.parseInt(w[2], "member handle"),
                        CliValues.parseInt(w[3], "group handle"));
            }
            case "table_indirect_add", "table_indirect_add_with_group" -> out.add(tableIndirectAdd(l, w[0].endsWith("_with_group")));
            case "table_indirect_delete" -> {
                need(w, 3, "table_indirect_delete <table> <entry handle>");
                EntryRef ref = handle(w[1], w[2]);
                control.deleteEntry(ref.table(), ref.match(), ref.priority());
                handlesOf(w[1]).release(CliValues.parseInt(w[2], "handle"));
            }
            case "table_indirect_set_default" -> {
                need(w, 3, "table_indirect_set_default <table> <member handle>");
                control.setIndirectDefault(w[1], CliValues.parseInt(w[2], "member handle"), false);
            }
            case "table_indirect_set_default_with_group" -> {
                need(w, 3, "table_indirect_set_default_with_group <table> <group handle>");
                control.setIndirectDefault(w[1], CliValues.parseInt(w[2], "group handle"), true);
            }
            case "set_crc16_parameters", "set_crc32_parameters" -> {
                need(w, 7, w[0] + " <name> <polynomial> <initial remainder> <final xor value> <reflect data> <reflect remainder>");
                sw.setCrcParameters(w[1], w[0].equals("set_crc16_parameters") ? 16 : 32, CliValues.parse(w[2]).longValue(),
                        CliValues.parse(w[3]).longValue(), CliValues.parse(w[4]).longValue(), bool(w[5]), bool(w[6]));
            }
            case "p4sim_show_calculations" -> {
                sw.customCrcs().values().forEach(c -> out.add(c.describe()));
            }
            case "table_num_entries" -> {
                need(w, 2, "table_num_entries <table>");
                out.add(String.valueOf(control.readEntries(w[1]).size()));
            }
            case "table_dump" -> {
                need(w, 2, "table_dump <table>");
                out.addAll(tableDump(w[1]));
            }
            case "register_read" -> {
                need(w, 2, "register_read <register> [index]");
                if (w.length > 2) {
                    int i = CliValues.parseInt(w[2], "index");
                    out.add(w[1] + "[" + i + "]= " + control.registerRead(w[1], i));
                } else {
                    List<BigInteger> all = control.registerRead(w[1], 0, sw.program().registers().get(w[1]) == null
                            ? 0 : sw.program().registers().get(w[1]).size - 1);
                    StringBuilder sb = new StringBuilder(w[1] + "= ");
                    for (int i = 0; i < all.size(); i++) {
                        sb.append(i == 0 ? "" : ", ").append(all.get(i));
                    }
                    out.add(sb.toString());
                }
            }
            case "pvs_add", "pvs_remove" -> {
                need(w, 3, w[0] + " <value set> <value>");
                if (w[0].equals("pvs_add")) {
                    control.valueSetAdd(w[1], CliValues.parse(w[2]));
                } else {
                    control.valueSetRemove(w[1], CliValues.parse(w[2]));
                }
            }
            case "pvs_get" -> {
                // as bmv2's runtime CLI prints them: the value's bytes in hex, no prefix
                need(w, 2, "pvs_get <value set>");
                List<BigInteger> members = control.valueSetRead(w[1]);
                dev.innet.p4sim.runtime.ValueSet vs = sw.program().arch().valueSets.get(w[1]);
                int digits = 2 * ((vs.width + 7) / 8);
                for (BigInteger v : members) {
                    String hex = v.toString(16);
                    out.add("0".repeat(Math.max(0, digits - hex.length())) + hex);
                }
            }
            case "pvs_clear" -> {
                need(w, 2, "pvs_clear <value set>");
                control.valueSetClear(w[1]);
            }
            case "show_pvs" -> {
                for (dev.innet.p4sim.runtime.ValueSet v : new java.util.LinkedHashSet<>(sw.program().arch().valueSets.values())) {
                    out.add(v.name + " (" + v.width + " bits, size " + v.size + ")");
                }
            }
            case "register_write" -> {
                need(w, 4, "register_write <register> <index> <value>");
                control.registerWrite(w[1], CliValues.parseInt(w[2], "index"), CliValues.parse(w[3]));
            }
            case "register_reset" -> {
                need(w, 2, "register_reset <register>");
                control.registerReset(w[1]);
            }
            case "counter_read" -> {
                need(w, 3, "counter_read <counter> <index>");
                int i = CliValues.parseInt(w[2], "index");
                CounterValue v = control.counterRead(w[1], i);
                out.add(w[1] + "[" + i + "]=  BmCounterValue(packets=" + v.packets() + ", bytes=" + v.bytes() + ")");
            }
            case "counter_reset" -> {
                need(w, 2, "counter_reset <counter>");
                control.counterReset(w[1]);
            }
            case "counter_write" -> {
                need(w, 5, "counter_write <counter> <index> <packets> <bytes>");
                control.counterWrite(w[1], CliValues.parseInt(w[2], "index"),
                        new CounterValue(CliValues.parse(w[3]).longValueExact(), CliValues.parse(w[4]).longValueExact()));
            }
            case "meter_set_rates" -> {
                need(w, 5, "meter_set_rates <meter> <index> <rate>:<burst> <rate>:<burst>");
                dev.innet.switchapi.MeterConfig cfg = meterConfig(w[3], w[4]);
                TableRuntime owner = directMeterOwner(w[1]);
                if (owner != null) {
                    EntryRef ref = handle(owner.name, w[2]);
                    control.directMeterSet(ref.table(), ref.match(), ref.priority(), cfg);
                } else {
                    control.meterSet(w[1], CliValues.parseInt(w[2], "index"), cfg);
                }
            }
            case "meter_array_set_rates" -> {
                need(w, 4, "meter_array_set_rates <meter> <rate>:<burst> <rate>:<burst>");
                dev.innet.switchapi.MeterConfig cfg = meterConfig(w[2], w[3]);
                dev.innet.p4sim.runtime.MeterArray m = sw.program().meters().get(w[1]);
                if (m == null) {
                    throw new ControlException("unknown meter '" + w[1] + "'");
                }
                for (int i = 0; i < m.size; i++) {
                    control.meterSet(w[1], i, cfg);
                }
            }
            case "meter_get_rates" -> {
                need(w, 3, "meter_get_rates <meter> <index>");
                dev.innet.switchapi.MeterConfig cfg = control.meterRead(w[1], CliValues.parseInt(w[2], "index"));
                if (cfg != null) {
                    out.add(String.format(java.util.Locale.ROOT, "0: info rate = %.6f, burst size = %d", cfg.committedRate(), cfg.committedBurst()));
                    out.add(String.format(java.util.Locale.ROOT, "1: info rate = %.6f, burst size = %d", cfg.peakRate(), cfg.peakBurst()));
                }
            }
            case "mirroring_add" -> {
                need(w, 3, "mirroring_add <session> <port>");
                control.cloneSessionSet(CliValues.parseInt(w[1], "session"), CliValues.parseInt(w[2], "port"));
            }
            case "mirroring_delete" -> {
                need(w, 2, "mirroring_delete <session>");
                control.cloneSessionDelete(CliValues.parseInt(w[1], "session"));
            }
            case "mc_mgrp_create" -> {
                need(w, 2, "mc_mgrp_create <group>");
                multicast.createGroup(CliValues.parseInt(w[1], "group"));
            }
            case "mc_mgrp_destroy" -> {
                need(w, 2, "mc_mgrp_destroy <group>");
                multicast.destroyGroup(CliValues.parseInt(w[1], "group"));
            }
            case "mc_node_create" -> {
                need(w, 3, "mc_node_create <rid> <port> [port ...]");
                List<Integer> ports = new ArrayList<>();
                for (int i = 2; i < w.length; i++) {
                    ports.add(CliValues.parseInt(w[i], "port"));
                }
                int h = multicast.createNode(CliValues.parseInt(w[1], "rid"), ports);
                out.add("Creating node with rid " + w[1] + " , port map and lag map\nnode was created with handle " + h);
            }
            case "mc_node_associate" -> {
                need(w, 3, "mc_node_associate <group> <node handle>");
                multicast.associate(CliValues.parseInt(w[1], "group"), CliValues.parseInt(w[2], "handle"));
            }
            case "mc_node_dissociate" -> {
                need(w, 3, "mc_node_dissociate <group> <node handle>");
                multicast.dissociate(CliValues.parseInt(w[1], "group"), CliValues.parseInt(w[2], "handle"));
            }
            case "reset_state" -> resetState();
            case "show_tables" -> {
                for (String name : sw.program().tables().keySet()) {
                    if (name.contains(".")) {
                        out.add(name);
                    }
                }
            }
            default -> {
                if (w[0].startsWith("p4sim_")) {
                    out.addAll(extension(l, w));
                } else {
                    throw new ControlException("unknown command '" + w[0] + "'");
                }
            }
        }
        return out;
    }

    /**
     * bmv2's {@code reset_state}: every table's entries (tables with const entries keep them), every register
     * and counter back to zero, entry handles numbered from 0 again. PTF tests call it in setUp so each starts
     * from a clean switch without a restart. Unlike bmv2, default actions, meters, multicast groups and clone
     * sessions are kept (docs/ptf.md).
     */
    private void resetState() {
        for (TableRuntime t : sw.tables()) {
            if (!t.constEntries) {
                control.clearTable(t.name);
            }
        }
        handles.clear();
        for (String register : sw.program().registers().keySet()) {
            control.registerReset(register);
        }
        for (String counter : sw.program().counters().keySet()) {
            control.counterReset(counter);
        }
    }

    /**
     * p4sim extensions for what bmv2's CLI cannot express (used by {@link RemoteSwitchControl}).
     * Priorities here are P4Runtime's (larger wins); values are printed in hex.
     */
    private List<String> extension(String line, String[] w) {
        List<String> out = new ArrayList<>();
        switch (w[0]) {
            case "p4sim_table_delete" -> {
                // p4sim_table_delete TABLE MATCH... [priority=P]
                ParsedMatch m = parseMatch(w, 2);
                control.deleteEntry(w[1], m.match(), m.priority());
                handlesOf(w[1]).releaseIf(r -> r.match().equals(m.match()) && r.priority() == m.priority());
            }
            case "p4sim_table_modify" -> {
                // p4sim_table_modify TABLE ACTION MATCH... [priority=P] => PARAMS...
                String[] halves = line.split("=>", -1);
                String[] left = halves[0].strip().split("\\s+");
                need(left, 3, "p4sim_table_modify <table> <action> <match fields> [priority=P] => <params>");
                ParsedMatch m = parseMatch(left, 3);
                ActionRuntime a = action(sw.tableRuntime(left[1]), left[2]);
                List<String> params = halves.length > 1 && !halves[1].isBlank() ? Arrays.asList(halves[1].strip().split("\\s+")) : List.of();
                control.modifyEntry(new EntrySpec(left[1], m.match(), m.priority(), left[2], params(a, params)));
            }
            case "p4sim_table_add" -> {
                // like table_add but with priority=P (P4Runtime convention) among the match fields
                String[] halves = line.split("=>", -1);
                String[] left = halves[0].strip().split("\\s+");
                need(left, 3, "p4sim_table_add <table> <action> <match fields> [priority=P] => <params>");
                ParsedMatch m = parseMatch(left, 3);
                ActionRuntime a = action(sw.tableRuntime(left[1]), left[2]);
                List<String> params = halves.length > 1 && !halves[1].isBlank() ? Arrays.asList(halves[1].strip().split("\\s+")) : List.of();
                control.addEntry(new EntrySpec(left[1], m.match(), m.priority(), left[2], params(a, params)));
                int h = handlesOf(left[1]).allocate(new EntryRef(left[1], m.match(), m.priority()));
                out.add("Entry has been added with handle " + h);
            }
            case "p4sim_table_indirect_add" -> {
                // p4sim_table_indirect_add TABLE MATCH... [priority=P] => member|group HANDLE
                String[] halves = line.split("=>", -1);
                String[] left = halves[0].strip().split("\\s+");
                String[] right = halves.length > 1 ? halves[1].strip().split("\\s+") : new String[0];
                if (right.length != 2 || !(right[0].equals("member") || right[0].equals("group"))) {
                    throw new ControlException("usage: p4sim_table_indirect_add <table> <match fields> [priority=P] => member|group <handle>");
                }
                ParsedMatch m = parseMatch(left, 2);
                boolean group = right[0].equals("group");
                control.addIndirectEntry(left[1], m.match(), m.priority(), CliValues.parseInt(right[1], "handle"), group);
                int h = handlesOf(left[1]).allocate(new EntryRef(left[1], m.match(), m.priority()));
                out.add("Entry has been added with handle " + h);
            }
            case "p4sim_table_read" -> {
                need(w, 2, "p4sim_table_read <table>");
                TableRuntime t = sw.tableRuntime(w[1]);
                for (EntrySpec e : control.readEntries(w[1])) {
                    out.add(entryLine(t, e));
                }
            }
            case "p4sim_table_default" -> {
                need(w, 2, "p4sim_table_default <table>");
                EntrySpec d = control.readDefaultAction(w[1]);
                out.add(d.action() + " =>" + hexArgs(d.args()));
            }
            case "p4sim_direct_meter_set" -> {
                // p4sim_direct_meter_set TABLE RATE:BURST RATE:BURST MATCH... [priority=P]
                need(w, 5, "p4sim_direct_meter_set <table> <rate>:<burst> <rate>:<burst> <match fields> [priority=P]");
                dev.innet.switchapi.MeterConfig cfg = meterConfig(w[2], w[3]);
                ParsedMatch m = parseMatch(w, 4);
                control.directMeterSet(w[1], m.match(), m.priority(), cfg);
            }
            case "p4sim_direct_counter_read" -> {
                ParsedMatch m = parseMatch(w, 2);
                CounterValue v = control.directCounterRead(w[1], m.match(), m.priority());
                out.add(v.packets() + " " + v.bytes());
            }
            case "p4sim_register_read" -> {
                need(w, 4, "p4sim_register_read <register> <from> <to>");
                for (BigInteger v : control.registerRead(w[1], CliValues.parseInt(w[2], "index"), CliValues.parseInt(w[3], "index"))) {
                    out.add("0x" + v.toString(16));
                }
            }
            case "p4sim_register_write" -> {
                need(w, 5, "p4sim_register_write <register> <from> <to> <value>");
                control.registerWrite(w[1], CliValues.parseInt(w[2], "index"), CliValues.parseInt(w[3], "index"), CliValues.parse(w[4]));
            }
            case "p4sim_counter_read" -> {
                need(w, 3, "p4sim_counter_read <counter> <index>");
                CounterValue v = control.counterRead(w[1], CliValues.parseInt(w[2], "index"));
                out.add(v.packets() + " " + v.bytes());
            }
            case "p4sim_mc_group_set" -> {
                need(w, 2, "p4sim_mc_group_set <group> [port:rid ...]");
                List<dev.innet.switchapi.Replica> rs = new ArrayList<>();
                for (int i = 2; i < w.length; i++) {
                    String[] pr = w[i].split(":");
                    if (pr.length != 2) {
                        throw new ControlException("replica must be port:rid, got '" + w[i] + "'");
                    }
                    rs.add(new dev.innet.switchapi.Replica(CliValues.parseInt(pr[0], "port"), CliValues.parseInt(pr[1], "rid")));
                }
                control.multicastGroupSet(CliValues.parseInt(w[1], "group"), rs);
            }
            case "p4sim_mc_group_delete" -> {
                need(w, 2, "p4sim_mc_group_delete <group>");
                control.multicastGroupDelete(CliValues.parseInt(w[1], "group"));
            }
            case "p4sim_packet_out" -> {
                need(w, 2, "p4sim_packet_out <hex frame>");
                try {
                    control.packetOut(java.util.HexFormat.of().parseHex(w[1]));
                } catch (IllegalArgumentException e) {
                    throw new ControlException("bad hex frame: " + e.getMessage());
                }
            }
            default -> throw new ControlException("unknown command '" + w[0] + "'");
        }
        return out;
    }

    private record ParsedMatch(List<Match> match, int priority) { }

    /** Match fields from w[from..] in CLI syntax, with an optional {@code priority=P} (P4Runtime convention). */
    private ParsedMatch parseMatch(String[] w, int from) {
        need(w, from, "<table> <match fields>");
        TableRuntime t = sw.tableRuntime(w[1]);
        List<Match> match = new ArrayList<>();
        int priority = 0;
        for (int i = from; i < w.length; i++) {
            if (w[i].startsWith("priority=")) {
                priority = CliValues.parseInt(w[i].substring(9), "priority");
                continue;
            }
            if (match.size() >= t.kinds.length) {
                throw new ControlException("table " + t.name + " has " + t.kinds.length + " match field(s)");
            }
            String text = w[i];
            boolean plain = !text.contains("/") && !text.contains("&&&") && !text.contains("->");
            match.add(text.equals("*") ? new Match.Wildcard()
                    : plain ? new Match.Exact(CliValues.parse(text)) : matchOf(text, t.kinds[match.size()]));
        }
        if (match.size() != t.kinds.length) {
            throw new ControlException("table " + t.name + " needs " + t.kinds.length + " match field(s), got " + match.size());
        }
        return new ParsedMatch(match, priority);
    }

    /** One entry in p4sim_table_add syntax: ACTION MATCH... priority=P => ARGS (hex). */
    static String entryLine(TableRuntime t, EntrySpec e) {
        StringBuilder sb = new StringBuilder(e.action());
        for (Match m : e.match()) {
            sb.append(' ').append(matchText(m));
        }
        sb.append(" priority=").append(e.priority()).append(" =>").append(hexArgs(e.args()));
        return sb.toString();
    }

    static String matchText(Match m) {
        return switch (m) {
            case Match.Exact e -> "0x" + e.value().toString(16);
            case Match.Lpm l -> "0x" + l.value().toString(16) + "/" + l.prefixLength();
            case Match.Ternary t -> "0x" + t.value().toString(16) + "&&&0x" + t.mask().toString(16);
            case Match.Range r -> "0x" + r.lo().toString(16) + "->0x" + r.hi().toString(16);
            case Match.Wildcard w -> "*";
        };
    }

    private static String hexArgs(List<BigInteger> args) {
        StringBuilder sb = new StringBuilder();
        for (BigInteger a : args) {
            sb.append(" 0x").append(a.toString(16));
        }
        return sb.toString();
    }

    private static dev.innet.switchapi.MeterConfig meterConfig(String committed, String peak) {
        String[] c = committed.split(":");
        String[] p = peak.split(":");
        if (c.length != 2 || p.length != 2) {
            throw new ControlException("meter rates must be <rate>:<burst>, got '" + committed + "' '" + peak + "'");
        }
        try {
            return new dev.innet.switchapi.MeterConfig(Double.parseDouble(c[0]), CliValues.parse(c[1]).longValueExact(),
                    Double.parseDouble(p[0]), CliValues.parse(p[1]).longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new ControlException("bad meter rate or burst: " + e.getMessage());
        }
    }

    /** The table whose direct meter is called {@code name}, or null. */
    private TableRuntime directMeterOwner(String name) {
        for (TableRuntime t : sw.program().tables().values()) {
            if (t.directMeterName != null && (t.directMeterName.equals(name) || t.directMeterName.endsWith("." + name))) {
                return t;
            }
        }
        return null;
    }

    private static void need(String[] w, int n, String usage) {
        if (w.length < n) {
            throw new ControlException("usage: " + usage);
        }
    }

    /** The action of a member of {@code profile}: one of the actions of a table that uses it. */
    private ActionRuntime profileAction(String profile, String action) {
        for (TableRuntime t : sw.tables()) {
            if (t.profile != null && (t.profile.name.equals(profile) || t.profile.name.endsWith("." + profile))) {
                return action(t, action);
            }
        }
        throw new ControlException("unknown action profile '" + profile + "' (or no table uses it)");
    }

    /** table_indirect_add[_with_group] TABLE MATCH... => HANDLE [PRIORITY] */
    private String tableIndirectAdd(String line, boolean group) {
        String usage = "usage: table_indirect_add" + (group ? "_with_group" : "") + " <table> <match fields> => <"
                + (group ? "group" : "member") + " handle> [priority]";
        String[] halves = line.split("=>", -1);
        if (halves.length != 2) {
            throw new ControlException(usage);
        }
        String[] left = halves[0].strip().split("\\s+");
        String[] right = halves[1].strip().isEmpty() ? new String[0] : halves[1].strip().split("\\s+");
        if (left.length < 2 || right.length < 1) {
            throw new ControlException(usage);
        }
        TableRuntime t = sw.tableRuntime(left[1]);
        List<String> keyTexts = Arrays.asList(left).subList(2, left.length);
        if (keyTexts.size() != t.kinds.length) {
            throw new ControlException("table " + t.name + " needs " + t.kinds.length + " match field(s), got " + keyTexts.size());
        }
        List<Match> match = new ArrayList<>();
        for (int i = 0; i < keyTexts.size(); i++) {
            match.add(matchOf(keyTexts.get(i), t.kinds[i]));
        }
        int priority = 0;
        if (t.usesPriority) {
            if (right.length != 2) {
                throw new ControlException("table " + t.name + " needs a priority after the handle");
            }
            try {
                priority = StfRunner.fromBmv2Priority(CliValues.parseInt(right[1], "priority"), true);
            } catch (IllegalArgumentException e) {
                throw new ControlException(e.getMessage());
            }
        } else if (right.length != 1) {
            throw new ControlException(usage);
        }
        control.addIndirectEntry(left[1], match, priority, CliValues.parseInt(right[0], group ? "group handle" : "member handle"), group);
        int h = handlesOf(left[1]).allocate(new EntryRef(left[1], match, priority));
        return "Entry has been added with handle " + h;
    }

    private static boolean bool(String text) {
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new ControlException("'" + text + "' is not true or false");
        };
    }

    private EntryRef handle(String table, String handleText) {
        int h = CliValues.parseInt(handleText, "handle");
        EntryRef ref = handlesOf(table).get(h);
        if (ref == null) {
            throw new ControlException("invalid handle " + h + " for table " + sw.tableRuntime(table).name);
        }
        return ref;
    }

    private EntryHandles<EntryRef> handlesOf(String table) {
        return handles.computeIfAbsent(sw.tableRuntime(table).name, k -> new EntryHandles<>());
    }

    private static ActionRuntime action(TableRuntime t, String name) {
        ActionRuntime a = t.action(name);
        if (a == null) {
            throw new ControlException("action '" + name + "' is not an action of table " + t.name);
        }
        return a;
    }

    private static List<BigInteger> params(ActionRuntime a, List<String> texts) {
        List<BigInteger> out = new ArrayList<>();
        for (String t : texts) {
            out.add(CliValues.parse(t));
        }
        if (out.size() != a.paramWidths.length) {
            throw new ControlException("action " + a.name + " takes " + a.paramWidths.length + " parameter(s), got " + out.size());
        }
        return out;
    }

    /** table_add TABLE ACTION MATCH... => PARAMS... [PRIORITY] */
    private String tableAdd(String line) {
        String[] halves = line.split("=>", -1);
        if (halves.length != 2) {
            throw new ControlException("usage: table_add <table> <action> <match fields> => <action params> [priority]");
        }
        String[] left = halves[0].strip().split("\\s+");
        if (left.length < 3) {
            throw new ControlException("usage: table_add <table> <action> <match fields> => <action params> [priority]");
        }
        TableRuntime t = sw.tableRuntime(left[1]);
        ActionRuntime a = action(t, left[2]);
        List<String> keyTexts = Arrays.asList(left).subList(3, left.length);
        if (keyTexts.size() != t.kinds.length) {
            throw new ControlException("table " + t.name + " needs " + t.kinds.length + " match field(s), got " + keyTexts.size());
        }
        List<Match> match = new ArrayList<>();
        for (int i = 0; i < keyTexts.size(); i++) {
            match.add(matchOf(keyTexts.get(i), t.kinds[i]));
        }
        String[] right = halves[1].strip().isEmpty() ? new String[0] : halves[1].strip().split("\\s+");
        List<String> paramTexts = new ArrayList<>(Arrays.asList(right));
        int priority = 0;
        if (t.usesPriority) {
            if (paramTexts.size() != a.paramWidths.length + 1) {
                throw new ControlException("table " + t.name + " needs a priority after the action parameters");
            }
            int bmv2 = CliValues.parseInt(paramTexts.remove(paramTexts.size() - 1), "priority");
            try {
                priority = StfRunner.fromBmv2Priority(bmv2, true);
            } catch (IllegalArgumentException e) {
                throw new ControlException(e.getMessage());
            }
        }
        EntrySpec spec = new EntrySpec(left[1], match, priority, left[2], params(a, paramTexts));
        control.addEntry(spec);
        int h = handlesOf(left[1]).allocate(new EntryRef(left[1], match, priority));
        return "Entry has been added with handle " + h;
    }

    private static Match matchOf(String text, TableRuntime.MatchKind kind) {
        switch (kind) {
            case LPM -> {
                int slash = text.lastIndexOf('/');
                if (slash < 0) {
                    throw new ControlException("lpm match field needs value/prefix_length: '" + text + "'");
                }
                return new Match.Lpm(CliValues.parse(text.substring(0, slash)), CliValues.parseInt(text.substring(slash + 1), "prefix length"));
            }
            case TERNARY -> {
                String[] p = text.split("&&&");
                if (p.length != 2) {
                    throw new ControlException("ternary match field needs value&&&mask: '" + text + "'");
                }
                return new Match.Ternary(CliValues.parse(p[0]), CliValues.parse(p[1]));
            }
            case RANGE -> {
                String[] p = text.split("->");
                if (p.length != 2) {
                    throw new ControlException("range match field needs start->end: '" + text + "'");
                }
                return new Match.Range(CliValues.parse(p[0]), CliValues.parse(p[1]));
            }
            case OPTIONAL -> {
                return text.equals("*") ? new Match.Wildcard() : new Match.Exact(CliValues.parse(text));
            }
            default -> {
                return new Match.Exact(CliValues.parse(text));
            }
        }
    }

    private List<String> tableDump(String table) {
        TableRuntime t = sw.tableRuntime(table);
        List<String> out = new ArrayList<>();
        out.add("==========");
        out.add("TABLE ENTRIES");
        for (Map.Entry<Integer, EntryRef> h : handlesOf(table).live().entrySet()) {
            for (EntrySpec e : control.readEntries(table)) {
                if (e.match().equals(h.getValue().match()) && e.priority() == h.getValue().priority()) {
                    out.add("**********");
                    out.add("Dumping entry 0x" + Integer.toHexString(h.getKey()));
                    out.add("Match key:");
                    for (int i = 0; i < e.match().size(); i++) {
                        out.add("* " + t.keyNames[i] + " : " + t.kinds[i].name() + " " + describe(e.match().get(i)));
                    }
                    if (t.usesPriority) {
                        out.add("Priority: " + (StfRunner.BMV2_PRIORITY_LIMIT - e.priority()));
                    }
                    out.add("Action entry: " + e.action() + " - " + hexList(e.args()));
                }
            }
        }
        out.add("==========");
        EntrySpec d = control.readDefaultAction(table);
        out.add("Default entry:");
        out.add("Action entry: " + d.action() + " - " + hexList(d.args()));
        out.add("==========");
        return out;
    }

    private static String describe(Match m) {
        return switch (m) {
            case Match.Exact e -> e.value().toString(16);
            case Match.Lpm l -> l.value().toString(16) + "/" + l.prefixLength();
            case Match.Ternary t -> t.value().toString(16) + " &&& " + t.mask().toString(16);
            case Match.Range r -> r.lo().toString(16) + " -> " + r.hi().toString(16);
            case Match.Wildcard w -> "*";
        };
    }

    private static String hexList(List<BigInteger> vs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < vs.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(vs.get(i).toString(16));
        }
        return sb.toString();
    }
}
