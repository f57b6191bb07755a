package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.List;

/**
 * The spec's MarkRemove (§6.3 with §6.4's migration): writes of the key are paused and drained, every
 * server's client-table entries for it are aggregated at home (retries will go home again), then
 * MARK_REMOVE makes the switch record mark = ver_next and send the key's writes home, resuming them.
 * The key leaves the directory when home's reply to such a write passes the switch (the P4 rule); the
 * switch reports KEY_REMOVED and the controller deletes the rkeys entry ({@link ForgetRemoved}).
 */
final class MarkRemove implements Procedure {
    private final PegasusController controller;
    private final byte[] key;
    private final int index;
    private final int home;
    private int stage;
    private long drainedAt;
    private TableMigration migration;
    private SwitchCommand command;

    MarkRemove(PegasusController controller, byte[] key, int index) {
        this.controller = controller;
        this.key = key;
        this.index = index;
        this.home = controller.homeIndex(key);
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case 0 -> {
                c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ONE);
                drainedAt = controller.now() + controller.drainNanos();
                stage = 1;
            }
            case 1 -> {
                if (controller.now() >= drainedAt) {
                    migration = new TableMigration(controller, key, controller.serverHostsExcept(home),
                            List.of(controller.hostOfIndex(home)));
                    stage = 2;
                }
            }
            case 2 -> {
                if (!controller.migratesClientTables() || migration.step()) {
                    command = new SwitchCommand(controller, PegasusOp.MARK_REMOVE, key, index, 0, DirectoryNames.KEY_MARKED);
                    command.send();
                    stage = 3;
                }
            }
            case 3 -> {
                if (command.done(c)) {
                    controller.keyMarked(index);
                    return true;
                }
            }
            default -> throw new IllegalStateException("MarkRemove past its last stage");
        }
        return false;
    }

    @Override
    public boolean onReply(PegasusPacket p) {
        return (migration != null && migration.onReply(p)) || (command != null && command.onReply(p));
    }
}
