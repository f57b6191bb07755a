package dev.innet.switchapi;

import java.math.BigInteger;
import java.util.List;
import java.util.function.Consumer;

/**
 * The target-neutral control-plane interface (P4Runtime-like semantics) that controllers and the
 * switch OS program against. Implemented in-process by p4sim, by a client of p4sim's control port,
 * and (where installed) by a driver for bmv2's runtime CLI. Names of tables, actions, registers and
 * counters may be fully qualified ({@code MyIngress.t}) or short when unambiguous.
 * Every method either succeeds completely or throws {@link ControlException} and changes nothing.
 */
public interface SwitchControl {
    void addEntry(EntrySpec entry);

    /** Replaces the action and arguments of the entry with the same match and priority. */
    void modifyEntry(EntrySpec entry);

    void deleteEntry(String table, List<Match> match, int priority);

    // Action profiles and selectors (tables with implementation = action_profile/action_selector): an
    // entry runs a member (an action with its arguments) or a group of members, one chosen per packet by
    // a hash of the selector keys. Handles are the target's (bmv2: the lowest free number). Targets
    // without them refuse these calls.

    /** Adds a member to an action profile; returns its handle. */
    default int actionProfileAddMember(String profile, String action, List<BigInteger> args) {
        throw new ControlException("action profiles are not supported by this target");
    }

    default void actionProfileModifyMember(String profile, int member, String action, List<BigInteger> args) {
        throw new ControlException("action profiles are not supported by this target");
    }

    default void actionProfileDeleteMember(String profile, int member) {
        throw new ControlException("action profiles are not supported by this target");
    }

    /** Creates an empty group in an action selector; returns its handle. */
    default int actionProfileCreateGroup(String profile) {
        throw new ControlException("action selectors are not supported by this target");
    }

    default void actionProfileDeleteGroup(String profile, int group) {
        throw new ControlException("action selectors are not supported by this target");
    }

    default void actionProfileAddMemberToGroup(String profile, int member, int group) {
        throw new ControlException("action selectors are not supported by this target");
    }

    default void actionProfileRemoveMemberFromGroup(String profile, int member, int group) {
        throw new ControlException("action selectors are not supported by this target");
    }

    /** An entry of a table with an action profile: it runs {@code handle}, a member or (if {@code group}) a group. */
    default void addIndirectEntry(String table, List<Match> match, int priority, int handle, boolean group) {
        throw new ControlException("action profiles are not supported by this target");
    }

    /** The default of a table with an action profile: a member, or (if {@code group}) a group of members. */
    default void setIndirectDefault(String table, int handle, boolean group) {
        throw new ControlException("action profiles are not supported by this target");
    }

    List<EntrySpec> readEntries(String table);

    void setDefaultAction(String table, String action, List<BigInteger> args);

    EntrySpec readDefaultAction(String table);

    /** Removes every non-const entry of a table. */
    void clearTable(String table);

    BigInteger registerRead(String register, int index);

    /** Cells {@code from} to {@code to} inclusive. */
    List<BigInteger> registerRead(String register, int from, int to);

    void registerWrite(String register, int index, BigInteger value);

    /** Writes {@code value} to cells {@code from} to {@code to} inclusive. */
    void registerWrite(String register, int from, int to, BigInteger value);

    void registerReset(String register);

    CounterValue counterRead(String counter, int index);

    void counterWrite(String counter, int index, CounterValue value);

    void counterReset(String counter);

    /** The direct counter of the entry with this match in {@code table}. */
    CounterValue directCounterRead(String table, List<Match> match, int priority);

    /** Configures cell {@code index} of a meter (its buckets start full). */
    void meterSet(String meter, int index, MeterConfig config);

    /** The configuration of a meter cell, or null if it was never configured (it marks GREEN). */
    MeterConfig meterRead(String meter, int index);

    /** Configures the direct meter of the entry with this match in {@code table}. */
    void directMeterSet(String table, List<Match> match, int priority, MeterConfig config);

    void multicastGroupSet(int group, List<Replica> replicas);

    void multicastGroupDelete(int group);

    void cloneSessionSet(int session, int port);

    void cloneSessionDelete(int session);

    /** Injects a frame as if it arrived on the CPU port. */
    void packetOut(byte[] frame);

    void onPacketIn(Consumer<PacketIn> sink);

    void onDigest(Consumer<Digest> sink);

    /**
     * Adds a value to a parser value set ({@code value_set<T>}; a struct T is its fields
     * concatenated, first field most significant). Adding a member again changes nothing.
     */
    default void valueSetAdd(String valueSet, BigInteger value) {
        throw new ControlException("parser value sets are not supported by this target");
    }

    /** Removes a value from a parser value set; removing a non-member changes nothing. */
    default void valueSetRemove(String valueSet, BigInteger value) {
        throw new ControlException("parser value sets are not supported by this target");
    }

    /** The members of a parser value set. */
    default List<BigInteger> valueSetRead(String valueSet) {
        throw new ControlException("parser value sets are not supported by this target");
    }

    default void valueSetClear(String valueSet) {
        throw new ControlException("parser value sets are not supported by this target");
    }
}
