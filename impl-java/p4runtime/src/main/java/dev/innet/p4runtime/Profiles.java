package dev.innet.p4runtime;

import dev.innet.switchapi.Match;
import dev.innet.switchapi.SwitchControl;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.p4.config.v1.ActionProfile;
import org.p4.config.v1.Table;
import org.p4.v1.ActionProfileGroup;
import org.p4.v1.ActionProfileMember;
import org.p4.v1.TableAction;
import org.p4.v1.Update;

/**
 * Action profile members and groups written through P4Runtime, on top of p4sim's action profiles.
 * P4Runtime ids are the client's; p4sim numbers members and groups itself (the lowest free handle), so
 * this keeps, per profile, each member's and group's handle, and, per indirect table, which member or
 * group each entry (and the default entry) refers to: reads answer from here. Checks that need the
 * current state (does the member exist, is it still used) run when an update is applied, so a batch may
 * create a member and then use it.
 */
final class Profiles {
    record Member(int handle, org.p4.v1.Action action) { }

    record Group(int handle, List<Integer> members, int maxSize) { }

    /** An entry of an indirect table: its match and priority as p4sim reads them back. */
    record Key(List<Match> match, int priority) { }

    private final ProgramIndex index;
    private final TableCodec codec;
    private final SwitchControl control;
    /** profile id -> member id -> member */
    final Map<Integer, TreeMap<Integer, Member>> members = new TreeMap<>();
    /** profile id -> group id -> group */
    final Map<Integer, TreeMap<Integer, Group>> groups = new TreeMap<>();
    /** table name -> entry -> the member or group it runs */
    final Map<String, Map<Key, TableAction>> entries = new HashMap<>();
    /** table name -> the member or group its default entry runs (absent: the program's default action) */
    final Map<String, TableAction> defaults = new HashMap<>();

    Profiles(ProgramIndex index, TableCodec codec, SwitchControl control) {
        this.index = index;
        this.codec = codec;
        this.control = control;
        for (ActionProfile p : index.p4info.getActionProfilesList()) {
            members.put(p.getPreamble().getId(), new TreeMap<>());
            groups.put(p.getPreamble().getId(), new TreeMap<>());
        }
    }

    /** The table whose actions a profile's members may run (every table of a profile lists the same actions). */
    private Table firstTable(ActionProfile p) {
        if (p.getTableIdsCount() == 0) {
            throw new P4RuntimeError(Status.Code.FAILED_PRECONDITION, "action profile " + p.getPreamble().getName() + " is used by no table");
        }
        return index.table(p.getTableIds(0));
    }

    // ---------------------------------------------------------------- members

    SwitchWriter.Prepared member(Update.Type type, ActionProfileMember m) {
        ActionProfile p = index.actionProfile(m.getActionProfileId());
        String pname = p.getPreamble().getName();
        int pid = p.getPreamble().getId();
        int id = m.getMemberId();
        if (id == 0) {
            throw P4RuntimeError.invalid(pname + ": member id 0 is reserved (it is the wildcard of reads)");
        }
        TableCodec.ActionCall call;
        if (type == Update.Type.DELETE) {
            call = null;
        } else {
            if (!m.hasAction()) {
                throw P4RuntimeError.invalid(pname + ": member " + id + " has no action");
            }
            call = codec.directAction(firstTable(p), m.getAction(), false);
        }
        String what = "member " + id + " of action profile " + pname;
        return () -> {
            TreeMap<Integer, Member> byId = members.get(pid);
            Member old = byId.get(id);
            switch (type) {
                case INSERT -> {
                    if (old != null) {
                        throw new P4RuntimeError(Status.Code.ALREADY_EXISTS, what + " already exists");
                    }
                    int[] h = {0};
                    SwitchWriter.call(() -> h[0] = control.actionProfileAddMember(pname, call.name(), call.args()));
                    byId.put(id, new Member(h[0], m.getAction()));
                    return () -> {
                        control.actionProfileDeleteMember(pname, byId.get(id).handle());
                        byId.remove(id);
                    };
                }
                case MODIFY -> {
                    requireMember(old, what);
                    SwitchWriter.call(() -> control.actionProfileModifyMember(pname, old.handle(), call.name(), call.args()));
                    byId.put(id, new Member(old.handle(), m.getAction()));
                    return () -> {
                        TableCodec.ActionCall back = codec.directAction(firstTable(p), old.action(), false);
                        control.actionProfileModifyMember(pname, old.handle(), back.name(), back.args());
                        byId.put(id, old);
                    };
                }
                case DELETE -> {
                    requireMember(old, what);
                    String user = memberUser(pid, id);
                    if (user != null) {
                        throw new P4RuntimeError(Status.Code.FAILED_PRECONDITION, what + " is still used by " + user);
                    }
                    SwitchWriter.call(() -> control.actionProfileDeleteMember(pname, old.handle()));
                    byId.remove(id);
                    return () -> {
                        TableCodec.ActionCall back = codec.directAction(firstTable(p), old.action(), false);
                        byId.put(id, new Member(control.actionProfileAddMember(pname, back.name(), back.args()), old.action()));
                    };
                }
                default -> throw P4RuntimeError.invalid("update type " + type);
            }
        };
    }

    private static void requireMember(Member m, String what) {
        if (m == null) {
            throw P4RuntimeError.notFound(what + " does not exist");
        }
    }

    /** What still refers to a member (a group or a table entry), or null. */
    private String memberUser(int pid, int memberId) {
        for (Map.Entry<Integer, Group> g : groups.get(pid).entrySet()) {
            if (g.getValue().members().contains(memberId)) {
                return "group " + g.getKey();
            }
        }
        return tableUser(pid, memberId, false);
    }

    private String tableUser(int pid, int id, boolean group) {
        for (Table t : index.p4info.getTablesList()) {
            if (t.getImplementationId() != pid) {
                continue;
            }
            String name = t.getPreamble().getName();
            for (TableAction ta : entries.getOrDefault(name, Map.of()).values()) {
                if (refersTo(ta, id, group)) {
                    return "an entry of table " + name;
                }
            }
            TableAction d = defaults.get(name);
            if (d != null && refersTo(d, id, group)) {
                return "the default entry of table " + name;
            }
        }
        return null;
    }

    private static boolean refersTo(TableAction ta, int id, boolean group) {
        return group ? ta.hasActionProfileGroupId() && ta.getActionProfileGroupId() == id
                : ta.hasActionProfileMemberId() && ta.getActionProfileMemberId() == id;
    }

    // ---------------------------------------------------------------- groups

    SwitchWriter.Prepared group(Update.Type type, ActionProfileGroup g) {
        ActionProfile p = index.actionProfile(g.getActionProfileId());
        String pname = p.getPreamble().getName();
        int pid = p.getPreamble().getId();
        int id = g.getGroupId();
        if (!p.getWithSelector()) {
            throw P4RuntimeError.invalid(pname + " is an action profile without a selector: it has members, no groups");
        }
        if (id == 0) {
            throw P4RuntimeError.invalid(pname + ": group id 0 is reserved (it is the wildcard of reads)");
        }
        String what = "group " + id + " of action selector " + pname;
        Set<Integer> wanted = new LinkedHashSet<>();
        if (type != Update.Type.DELETE) {
            for (ActionProfileGroup.Member m : g.getMembersList()) {
                if (m.getMemberId() == 0) {
                    throw P4RuntimeError.invalid(what + ": member id 0 is reserved");
                }
                if (!wanted.add(m.getMemberId())) {
                    throw P4RuntimeError.invalid(what + ": member " + m.getMemberId() + " is listed twice");
                }
                if (m.getWeight() < 1) {
                    throw P4RuntimeError.invalid(what + ": member " + m.getMemberId() + " has weight " + m.getWeight() + " (at least 1)");
                }
                if (m.getWeight() > 1) {
                    throw P4RuntimeError.unimplemented(what + ": member " + m.getMemberId() + " has weight " + m.getWeight()
                            + ": p4sim picks members uniformly (weight 1 only)");
                }
                if (m.hasWatch() || m.hasWatchPort()) {
                    throw P4RuntimeError.unimplemented(what + ": watch ports are not supported by p4sim");
                }
            }
            if (g.getMaxSize() < 0) {
                throw P4RuntimeError.invalid(what + ": max_size " + g.getMaxSize() + " is negative");
            }
            if (p.getMaxGroupSize() > 0 && g.getMaxSize() > p.getMaxGroupSize()) {
                throw P4RuntimeError.invalid(what + ": max_size " + g.getMaxSize() + " is above the selector's max_group_size "
                        + p.getMaxGroupSize());
            }
            int limit = g.getMaxSize() > 0 ? g.getMaxSize() : p.getMaxGroupSize();
            if (limit > 0 && wanted.size() > limit) {
                throw new P4RuntimeError(Status.Code.RESOURCE_EXHAUSTED, what + ": " + wanted.size() + " members, at most " + limit);
            }
        }
        List<Integer> newMembers = List.copyOf(wanted);
        return () -> {
            TreeMap<Integer, Group> byId = groups.get(pid);
            Group old = byId.get(id);
            switch (type) {
                case INSERT -> {
                    if (old != null) {
                        throw new P4RuntimeError(Status.Code.ALREADY_EXISTS, what + " already exists");
                    }
                    List<Integer> handles = memberHandles(pid, newMembers, what);
                    int[] h = {0};
                    SwitchWriter.call(() -> h[0] = control.actionProfileCreateGroup(pname));
                    for (int mh : handles) {
                        control.actionProfileAddMemberToGroup(pname, mh, h[0]);
                    }
                    byId.put(id, new Group(h[0], newMembers, g.getMaxSize()));
                    return () -> {
                        control.actionProfileDeleteGroup(pname, byId.get(id).handle());
                        byId.remove(id);
                    };
                }
                case MODIFY -> {
                    if (old == null) {
                        throw P4RuntimeError.notFound(what + " does not exist");
                    }
                    memberHandles(pid, newMembers, what);
                    setMembers(pid, pname, old.handle(), old.members(), newMembers);
                    byId.put(id, new Group(old.handle(), newMembers, g.getMaxSize()));
                    return () -> {
                        setMembers(pid, pname, old.handle(), newMembers, old.members());
                        byId.put(id, old);
                    };
                }
                case DELETE -> {
                    if (old == null) {
                        throw P4RuntimeError.notFound(what + " does not exist");
                    }
                    String user = tableUser(pid, id, true);
                    if (user != null) {
                        throw new P4RuntimeError(Status.Code.FAILED_PRECONDITION, what + " is still used by " + user);
                    }
                    SwitchWriter.call(() -> control.actionProfileDeleteGroup(pname, old.handle()));
                    byId.remove(id);
                    return () -> {
                        int h = control.actionProfileCreateGroup(pname);
                        for (int mh : memberHandles(pid, old.members(), what)) {
                            control.actionProfileAddMemberToGroup(pname, mh, h);
                        }
                        byId.put(id, new Group(h, old.members(), old.maxSize()));
                    };
                }
                default -> throw P4RuntimeError.invalid("update type " + type);
            }
        };
    }

    private List<Integer> memberHandles(int pid, List<Integer> ids, String what) {
        List<Integer> out = new ArrayList<>();
        for (int m : ids) {
            Member member = members.get(pid).get(m);
            if (member == null) {
                throw P4RuntimeError.notFound(what + ": member " + m + " does not exist");
            }
            out.add(member.handle());
        }
        return out;
    }

    private void setMembers(int pid, String pname, int group, List<Integer> from, List<Integer> to) {
        for (int m : from) {
            if (!to.contains(m)) {
                control.actionProfileRemoveMemberFromGroup(pname, members.get(pid).get(m).handle(), group);
            }
        }
        for (int m : to) {
            if (!from.contains(m)) {
                control.actionProfileAddMemberToGroup(pname, members.get(pid).get(m).handle(), group);
            }
        }
    }

    // ---------------------------------------------------------------- indirect table entries

    /** A member or group reference of an entry of an indirect table, checked against the table's profile (not its state). */
    TableAction reference(Table table, TableAction ta) {
        String tname = table.getPreamble().getName();
        ActionProfile p = index.actionProfile(table.getImplementationId());
        switch (ta.getTypeCase()) {
            case ACTION_PROFILE_MEMBER_ID -> {
                if (ta.getActionProfileMemberId() == 0) {
                    throw P4RuntimeError.invalid(tname + ": member id 0 is reserved");
                }
            }
            case ACTION_PROFILE_GROUP_ID -> {
                if (!p.getWithSelector()) {
                    throw P4RuntimeError.invalid(tname + ": action profile " + p.getPreamble().getName()
                            + " has no selector: entries take an action_profile_member_id, not a group id");
                }
                if (ta.getActionProfileGroupId() == 0) {
                    throw P4RuntimeError.invalid(tname + ": group id 0 is reserved");
                }
            }
            default -> codec.action(table, ta, false); // throws: the case's own error
        }
        return ta;
    }

    /** The p4sim handle a reference runs; NOT_FOUND when the member or group does not exist (now). */
    int handle(Table table, TableAction ta) {
        int pid = table.getImplementationId();
        String tname = table.getPreamble().getName();
        if (ta.hasActionProfileGroupId()) {
            Group g = groups.get(pid).get(ta.getActionProfileGroupId());
            if (g == null) {
                throw P4RuntimeError.notFound(tname + ": group " + ta.getActionProfileGroupId() + " does not exist");
            }
            return g.handle();
        }
        Member m = members.get(pid).get(ta.getActionProfileMemberId());
        if (m == null) {
            throw P4RuntimeError.notFound(tname + ": member " + ta.getActionProfileMemberId() + " does not exist");
        }
        return m.handle();
    }

    /** Forgets every member, group and reference, deleting the members and groups from p4sim (tables already cleared). */
    void reset() {
        for (ActionProfile p : index.p4info.getActionProfilesList()) {
            String pname = p.getPreamble().getName();
            int pid = p.getPreamble().getId();
            groups.get(pid).values().forEach(g -> control.actionProfileDeleteGroup(pname, g.handle()));
            members.get(pid).values().forEach(m -> control.actionProfileDeleteMember(pname, m.handle()));
            groups.get(pid).clear();
            members.get(pid).clear();
        }
        entries.clear();
        defaults.clear();
    }
}
