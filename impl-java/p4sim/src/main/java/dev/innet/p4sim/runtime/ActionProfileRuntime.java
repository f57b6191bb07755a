package dev.innet.p4sim.runtime;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * An action_profile or action_selector instance (bmv2's ActionProfile): members (an action with its
 * arguments) and, for selectors, groups of members. Tables using it hold member or group references
 * instead of actions. Handles are the lowest free numbers, as bmv2's handle managers give them. A
 * group picks its member as bmv2's GroupMgr does: the selector keys' hash modulo the number of
 * members, counting members in handle order.
 */
public final class ActionProfileRuntime {
    public final String name;
    public final int size;
    public final boolean selector;
    private final Map<Integer, Member> members = new HashMap<>();
    private final BitSet memberHandles = new BitSet();
    private final Map<Integer, TreeSet<Integer>> groups = new HashMap<>();
    private final Map<Integer, int[]> groupArrays = new HashMap<>();
    private final BitSet groupHandles = new BitSet();

    /** A member: the action to run and its control-plane data. */
    public static final class Member {
        public ActionRuntime action;
        public long[] args;

        Member(ActionRuntime action, long[] args) {
            this.action = action;
            this.args = args;
        }
    }

    public ActionProfileRuntime(String name, int size, boolean selector) {
        this.name = name;
        this.size = size;
        this.selector = selector;
    }

    public int addMember(ActionRuntime action, long[] args) {
        if (members.size() >= size) {
            throw new IllegalStateException("action profile " + name + " is full (size " + size + ")");
        }
        int h = memberHandles.nextClearBit(0);
        memberHandles.set(h);
        members.put(h, new Member(action, args));
        return h;
    }

    public Member member(int handle) {
        return members.get(handle);
    }

    public void deleteMember(int handle) {
        requireMember(handle);
        for (TreeSet<Integer> g : groups.values()) {
            if (g.contains(handle)) {
                throw new IllegalStateException("member " + handle + " of " + name + " is still in a group");
            }
        }
        members.remove(handle);
        memberHandles.clear(handle);
    }

    public int createGroup() {
        if (!selector) {
            throw new IllegalStateException(name + " is an action_profile: only action selectors have groups");
        }
        int h = groupHandles.nextClearBit(0);
        groupHandles.set(h);
        groups.put(h, new TreeSet<>());
        groupArrays.put(h, new int[0]);
        return h;
    }

    public boolean hasGroup(int handle) {
        return groups.containsKey(handle);
    }

    public void deleteGroup(int handle) {
        requireGroup(handle);
        groups.remove(handle);
        groupArrays.remove(handle);
        groupHandles.clear(handle);
    }

    public void addToGroup(int group, int member) {
        requireGroup(group);
        requireMember(member);
        if (!groups.get(group).add(member)) {
            throw new IllegalStateException("member " + member + " is already in group " + group + " of " + name);
        }
        groupArrays.put(group, groups.get(group).stream().mapToInt(Integer::intValue).toArray());
    }

    public void removeFromGroup(int group, int member) {
        requireGroup(group);
        if (!groups.get(group).remove(member)) {
            throw new IllegalStateException("member " + member + " is not in group " + group + " of " + name);
        }
        groupArrays.put(group, groups.get(group).stream().mapToInt(Integer::intValue).toArray());
    }

    public List<Integer> groupMembers(int group) {
        requireGroup(group);
        return List.copyOf(groups.get(group));
    }

    /** The member a group gives for a selector hash; null for an empty group. */
    public Member pick(int group, long hash) {
        int[] m = groupArrays.get(group);
        if (m == null || m.length == 0) {
            return null;
        }
        return members.get(m[(int) Long.remainderUnsigned(hash, m.length)]);
    }

    public void requireMember(int handle) {
        if (!members.containsKey(handle)) {
            throw new IllegalStateException("no member " + handle + " in action profile " + name);
        }
    }

    public void requireGroup(int handle) {
        if (!groups.containsKey(handle)) {
            throw new IllegalStateException("no group " + handle + " in action selector " + name);
        }
    }
}
