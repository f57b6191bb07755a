package dev.innet.pegasus.controller;

import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.switchapi.SwitchControl;
import java.math.BigInteger;
import java.util.List;

/**
 * A change of a key's directory state under §6.4's rule "pausing WRITES to the key during
 * transitions": pause the key's writes, wait until the writes in flight have drained (the spec's
 * Drained), migrate client tables, then send the directory command (which resumes writes in the same
 * pipeline pass). {@link AddKey} and {@link MarkRemove} are its two instances.
 */
abstract class KeyTransition extends KeyProcedure {
    private int stage;
    private long drainedAt;
    private TableMigration migration;
    private SwitchCommand command;

    KeyTransition(PegasusController controller, byte[] key, int index) {
        super(controller, key, index);
    }

    /** Switch state to set up before the drain (the pause included). */
    protected abstract void prepare(SwitchControl c);

    /** The servers whose client-table entries for the key move, and where to. */
    protected abstract List<Integer> tableSources();

    protected abstract List<Integer> tableTargets();

    /** The directory command that ends the transition. */
    protected abstract SwitchCommand command();

    /** The command took effect. */
    protected abstract void finished();

    /** Whether what the command needs besides the migration is known; asked each step after the drain. */
    protected boolean readyForCommand() {
        return true;
    }

    /** A reply to a request of this transition's own (besides the migration and the command). */
    protected boolean onOwnReply(PegasusPacket p) {
        return false;
    }

    @Override
    public final boolean step(SwitchControl c) {
        switch (stage) {
            case 0 -> {
                prepare(c);
                c.registerWrite(DirectoryNames.WRITE_PAUSED, index, BigInteger.ONE);
                drainedAt = controller.now() + controller.drainNanos();
                stage = 1;
            }
            case 1 -> {
                if (controller.now() >= drainedAt) {
                    migration = controller.migratesClientTables()
                            ? new TableMigration(controller, key, tableSources(), tableTargets()) : null;
                    stage = 2;
                }
            }
            case 2 -> {
                if ((migration == null || migration.step()) && readyForCommand()) {
                    command = command();
                    command.send();
                    stage = 3;
                }
            }
            case 3 -> {
                if (command.done(c)) {
                    finished();
                    return true;
                }
            }
            default -> throw new IllegalStateException(getClass().getSimpleName() + " past its last stage");
        }
        return false;
    }

    @Override
    public final boolean onReply(PegasusPacket p) {
        return (migration != null && migration.onReply(p)) || (command != null && command.onReply(p)) || onOwnReply(p);
    }
}
