package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusExt;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.List;

/**
 * The spec's AddKey (§6.3, with §6.4's table migration): the key's rkeys entry is installed inactive and
 * its writes paused; once the writes in flight have drained, home's client-table entries for the key
 * are copied to every server (a retry will now meet a detector, not home); then ADD_KEY makes the switch
 * set rset = {home}, ver_completed = ver_next - 1 and activate the key in one pipeline pass, which also
 * resumes writes. In a chain's tail (§7) ver_completed is home's newest version of the key instead, read
 * after the drain (P-20; docs/pegasus.md "Across racks").
 */
final class AddKey extends KeyTransition {
    private final ServerRequests homesVersion;
    private long newest = -1;
    private boolean asked;

    AddKey(PegasusController controller, byte[] key, int index) {
        super(controller, key, index);
        this.homesVersion = new ServerRequests(controller);
    }

    /**
     * In a chain (P-20): home's newest version of the key, read once the drain is over (the key's rkeys
     * entry is installed inactive, so the read goes home, P-2).
     */
    @Override
    protected boolean readyForCommand() {
        if (!controller.addsKeysAtHomesVersion()) {
            return true;
        }
        if (!asked) {
            homesVersion.send(controller.hostOfIndex(home), PegasusOp.READ, 0, key, 0, 0, new byte[0]);
            asked = true;
        }
        boolean settled = homesVersion.settled();
        for (PegasusPacket p : homesVersion.drainAnswers()) {
            newest = p.message().seq();
        }
        return settled && newest >= 0;
    }

    @Override
    protected boolean onOwnReply(PegasusPacket p) {
        return homesVersion.onReply(p);
    }

    @Override
    protected void prepare(SwitchControl c) {
        c.registerWrite(DirectoryNames.KEY_STATE, index, BigInteger.ZERO);
        c.registerWrite(DirectoryNames.REP_FACTOR, index, BigInteger.ONE);
        c.registerWrite(DirectoryNames.READ_COUNT, index, BigInteger.ZERO);
        c.registerWrite(DirectoryNames.WRITE_COUNT, index, BigInteger.ZERO);
        controller.rememberReplicated(key);
        c.addEntry(controller.rkeysEntry(key, index));
    }

    @Override
    protected List<Integer> tableSources() {
        return List.of(controller.hostOfIndex(home));
    }

    @Override
    protected List<Integer> tableTargets() {
        return controller.serverHostsExcept(home);
    }

    @Override
    protected SwitchCommand command() {
        return controller.addsKeysAtHomesVersion()
                ? new SwitchCommand(controller, PegasusOp.ADD_KEY, key, index, home + 1, DirectoryNames.KEY_ACTIVE, newest,
                        PegasusExt.FLAG_COMPLETED_GIVEN)
                : new SwitchCommand(controller, PegasusOp.ADD_KEY, key, index, home + 1, DirectoryNames.KEY_ACTIVE);
    }

    @Override
    protected void finished() {
        controller.keyAdded(key, index);
    }
}
