package dev.innet.p4runtime;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.p4.config.v1.Action;
import org.p4.config.v1.ActionProfile;
import org.p4.config.v1.ControllerPacketMetadata;
import org.p4.config.v1.Counter;
import org.p4.config.v1.DirectCounter;
import org.p4.config.v1.Digest;
import org.p4.config.v1.Meter;
import org.p4.config.v1.DirectMeter;
import org.p4.config.v1.P4Info;
import org.p4.config.v1.Register;
import org.p4.config.v1.Table;
import org.p4.config.v1.ValueSet;

/** The running program's P4Info looked up by id, with the digest call sites that feed its digests. */
final class ProgramIndex {
    final P4Info p4info;
    final Map<Integer, Table> tables = new HashMap<>();
    final Map<Integer, Action> actions = new HashMap<>();
    final Map<Integer, Counter> counters = new HashMap<>();
    final Map<Integer, DirectCounter> directCounters = new HashMap<>();
    final Map<Integer, Meter> meters = new HashMap<>();
    final Map<Integer, DirectMeter> directMeters = new HashMap<>();
    final Map<Integer, Register> registers = new HashMap<>();
    final Map<Integer, Digest> digests = new HashMap<>();
    final Map<Integer, ActionProfile> actionProfiles = new HashMap<>();
    final Map<Integer, ValueSet> valueSets = new HashMap<>();
    final Map<String, Integer> digestIdByName = new HashMap<>();
    final List<P4InfoBuilder.DigestSite> digestSites;
    /** null when the program has no header annotated @controller_header("packet_in") / ("packet_out") */
    final ControllerPacketMetadata packetIn;
    final ControllerPacketMetadata packetOut;

    ProgramIndex(P4Info p4info, List<P4InfoBuilder.DigestSite> digestSites) {
        this.p4info = p4info;
        this.digestSites = List.copyOf(digestSites);
        p4info.getTablesList().forEach(t -> tables.put(t.getPreamble().getId(), t));
        p4info.getActionsList().forEach(a -> actions.put(a.getPreamble().getId(), a));
        p4info.getCountersList().forEach(c -> counters.put(c.getPreamble().getId(), c));
        p4info.getDirectCountersList().forEach(c -> directCounters.put(c.getPreamble().getId(), c));
        p4info.getMetersList().forEach(m -> meters.put(m.getPreamble().getId(), m));
        p4info.getDirectMetersList().forEach(m -> directMeters.put(m.getPreamble().getId(), m));
        p4info.getRegistersList().forEach(r -> registers.put(r.getPreamble().getId(), r));
        p4info.getActionProfilesList().forEach(p -> actionProfiles.put(p.getPreamble().getId(), p));
        p4info.getValueSetsList().forEach(v -> valueSets.put(v.getPreamble().getId(), v));
        p4info.getDigestsList().forEach(d -> {
            digests.put(d.getPreamble().getId(), d);
            digestIdByName.put(d.getPreamble().getName(), d.getPreamble().getId());
        });
        ControllerPacketMetadata in = null;
        ControllerPacketMetadata out = null;
        for (ControllerPacketMetadata c : p4info.getControllerPacketMetadataList()) {
            if (c.getPreamble().getName().equals("packet_in")) {
                in = c;
            } else if (c.getPreamble().getName().equals("packet_out")) {
                out = c;
            }
        }
        this.packetIn = in;
        this.packetOut = out;
    }

    Table table(int id) {
        Table t = tables.get(id);
        if (t == null) {
            throw P4RuntimeError.notFound("no table with id " + id + " in the P4Info");
        }
        return t;
    }

    Action action(int id) {
        Action a = actions.get(id);
        if (a == null) {
            throw P4RuntimeError.notFound("no action with id " + id + " in the P4Info");
        }
        return a;
    }

    ActionProfile actionProfile(int id) {
        ActionProfile p = actionProfiles.get(id);
        if (p == null) {
            throw P4RuntimeError.notFound("no action profile with id " + id + " in the P4Info");
        }
        return p;
    }

    ValueSet valueSet(int id) {
        ValueSet v = valueSets.get(id);
        if (v == null) {
            throw P4RuntimeError.notFound("no value set with id " + id + " in the P4Info");
        }
        return v;
    }

    Counter counter(int id) {
        Counter c = counters.get(id);
        if (c == null) {
            throw P4RuntimeError.notFound("no counter with id " + id + " in the P4Info");
        }
        return c;
    }

    Meter meter(int id) {
        Meter m = meters.get(id);
        if (m == null) {
            throw P4RuntimeError.notFound("no meter with id " + id + " in the P4Info");
        }
        return m;
    }

    Register register(int id) {
        Register r = registers.get(id);
        if (r == null) {
            throw P4RuntimeError.notFound("no register with id " + id + " in the P4Info");
        }
        return r;
    }

    Digest digest(int id) {
        Digest d = digests.get(id);
        if (d == null) {
            throw P4RuntimeError.notFound("no digest with id " + id + " in the P4Info");
        }
        return d;
    }

    static int totalBits(ControllerPacketMetadata header) {
        return header.getMetadataList().stream().mapToInt(ControllerPacketMetadata.Metadata::getBitwidth).sum();
    }
}
