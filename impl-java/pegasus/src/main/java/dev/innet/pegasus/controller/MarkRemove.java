package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.switchapi.SwitchControl;
import java.util.List;

/**
 * The spec's MarkRemove (§6.3 with §6.4's migration): writes of the key are paused and drained, every
 * server's client-table entries for it are aggregated at home (retries will go home again), then
 * MARK_REMOVE makes the switch record mark = ver_next and send the key's writes home, resuming them.
 * The key leaves the directory when home's reply to such a write passes the switch (the P4 rule); the
 * switch reports KEY_REMOVED and the controller deletes the rkeys entry ({@link ForgetRemoved}).
 */
final class MarkRemove extends KeyTransition {
    MarkRemove(PegasusController controller, byte[] key, int index) {
        super(controller, key, index);
    }

    @Override
    protected void prepare(SwitchControl c) {}

    @Override
    protected List<Integer> tableSources() {
        return controller.serverHostsExcept(home);
    }

    @Override
    protected List<Integer> tableTargets() {
        return List.of(controller.hostOfIndex(home));
    }

    @Override
    protected SwitchCommand command() {
        return new SwitchCommand(controller, PegasusOp.MARK_REMOVE, key, index, 0, DirectoryNames.KEY_MARKED);
    }

    @Override
    protected void finished() {
        controller.keyMarked(index);
    }
}
