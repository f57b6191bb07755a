package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.List;

/**
 * The spec's AddKey (§6.3, with §6.4's table migration): the key's rkeys entry is installed inactive and
 * its writes paused; once the writes in flight have drained, home's client-table entries for the key
 * are copied to every server (a retry will now meet a detector, not home); then ADD_KEY makes the switch
 * set rset = {home}, ver_completed = ver_next - 1 and activate the key in one pipeline pass, which also
 * resumes writes.
 */
final class AddKey extends KeyTransition {
    AddKey(PegasusController controller, byte[] key, int index) {
        super(controller, key, index);
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
        return new SwitchCommand(controller, PegasusOp.ADD_KEY, key, index, home + 1, DirectoryNames.KEY_ACTIVE);
    }

    @Override
    protected void finished() {
        controller.keyAdded(key, index);
    }
}
