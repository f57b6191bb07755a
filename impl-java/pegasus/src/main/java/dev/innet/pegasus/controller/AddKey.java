package dev.innet.pegasus.controller;

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
 * resumes writes.
 */
final class AddKey implements Procedure {
    private final PegasusController controller;
    private final byte[] key;
    private final int index;
    private final int home;
    private int stage;
    private long drainedAt;
    private TableMigration migration;
    private SwitchCommand command;

    AddKey(PegasusController controller, byte[] key, int index) {
        this.controller = controller;
        this.key = key;
        this.index = index;
        this.home = controller.homeIndex(key);
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case 0 -> {
                c.registerWrite(DirectoryNames.KEY_STATE, index, BigInteger.ZERO);
                c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ONE);
                c.registerWrite(DirectoryNames.REP_FACTOR, index, BigInteger.ONE);
                c.registerWrite(DirectoryNames.READ_COUNT, index, BigInteger.ZERO);
                c.registerWrite(DirectoryNames.WRITE_COUNT, index, BigInteger.ZERO);
                controller.rememberReplicated(key);
                c.addEntry(controller.rkeysEntry(key, index));
                drainedAt = controller.now() + controller.drainNanos();
                stage = 1;
            }
            case 1 -> {
                if (controller.now() >= drainedAt) {
                    List<Integer> others = controller.serverHostsExcept(home);
                    migration = new TableMigration(controller, key, List.of(controller.hostOfIndex(home)), others);
                    stage = 2;
                }
            }
            case 2 -> {
                if (!controller.migratesClientTables() || migration.step()) {
                    command = new SwitchCommand(controller, PegasusOp.ADD_KEY, key, index, home + 1,
                            DirectoryNames.KEY_ACTIVE);
                    command.send();
                    stage = 3;
                }
            }
            case 3 -> {
                if (command.done(c)) {
                    controller.keyAdded(key, index);
                    return true;
                }
            }
            default -> throw new IllegalStateException("AddKey past its last stage");
        }
        return false;
    }

    @Override
    public boolean onReply(PegasusPacket p) {
        return (migration != null && migration.onReply(p)) || (command != null && command.onReply(p));
    }
}
