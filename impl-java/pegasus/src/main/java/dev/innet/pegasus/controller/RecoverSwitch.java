package dev.innet.pegasus.controller;

import dev.innet.kv.KvStatus;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.protocol.Forwarding;
import dev.innet.switchapi.SwitchControl;
import dev.innet.wire.InnetMessage;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bringing up a fresh switch (first start, or after a switch crash lost every table and register). Not
 * in the paper, which leaves switch failure to chain reconfiguration (§7); docs/pegasus.md "Switch
 * crash and recovery" gives the argument. The switch starts closed (client requests dropped). The
 * controller installs routes for servers and itself, waits for writes in flight to drain, then:
 * <ol>
 *   <li>asks every server for the highest version it was ever sent: the new ver_next is above all of
 *       them, so no new write is stamped below a stored version (a restarted ver_next of 1 would have
 *       every write acknowledged and ignored);
 *   <li>for every key that was replicated before the crash (kept durably by the controller), reads
 *       every server's copy and writes the newest to home, and aggregates the client tables at home:
 *       the directory is gone, so the key is unreplicated and home must hold its latest value;
 *   <li>sets ver_next, installs the clients' routes and opens the switch.
 * </ol>
 * Every request is resent until answered: a server that is down holds the switch closed.
 */
final class RecoverSwitch implements Procedure {
    private final PegasusController controller;
    private final ServerRequests requests;
    private final List<byte[]> keys;
    private final List<TableMigration> migrations = new ArrayList<>();
    private final Map<String, InnetMessage> newest = new TreeMap<>();
    private int stage;
    private long drainedAt;
    private long maxVersion;

    RecoverSwitch(PegasusController controller, List<byte[]> previouslyReplicated) {
        this.controller = controller;
        this.requests = new ServerRequests(controller);
        this.keys = List.copyOf(previouslyReplicated);
    }

    @Override
    public boolean step(SwitchControl c) {
        switch (stage) {
            case 0 -> {
                // a controller that restarted during an earlier recovery finds some entries installed
                c.clearTable(Forwarding.IPV4_FORWARD);
                c.clearTable(DirectoryNames.SERVER_ADDRESS);
                c.clearTable(DirectoryNames.RACK_SERVERS);
                controller.programTables(c);
                Forwarding.install(c, controller.serverAndControllerHosts(), controller::portOf);
                drainedAt = controller.now() + controller.drainNanos();
                stage = 1;
            }
            case 1 -> {
                if (controller.now() >= drainedAt) {
                    for (int host : controller.serverHosts()) {
                        requests.send(host, PegasusOp.MAX_VERSION, 0, new byte[InnetMessage.KEY_BYTES], 0, 0, new byte[0]);
                        for (byte[] key : keys) {
                            requests.send(host, PegasusOp.READ, 0, key, 0, 0, new byte[0]);
                        }
                    }
                    stage = 2;
                }
            }
            case 2 -> {
                boolean settled = requests.settled();
                for (PegasusPacket a : requests.drainAnswers()) {
                    collect(a.message());
                }
                if (settled) {
                    collapseToHomes();
                    stage = 3;
                }
            }
            case 3 -> {
                boolean settled = requests.settled();
                requests.drainAnswers();
                boolean migrated = true;
                for (TableMigration m : migrations) {
                    migrated &= m.step();
                }
                if (settled && migrated) {
                    c.registerWrite(DirectoryNames.VER_NEXT, 0, BigInteger.valueOf(maxVersion + 1));
                    Forwarding.install(c, controller.clientHosts(), controller::portOf);
                    c.registerWrite(DirectoryNames.SWITCH_OPEN, 0, BigInteger.ONE);
                    controller.switchRecovered(maxVersion + 1);
                    return true;
                }
            }
            default -> throw new IllegalStateException("RecoverSwitch past its last stage");
        }
        return false;
    }

    private void collect(InnetMessage m) {
        maxVersion = Math.max(maxVersion, m.seq());
        if (m.op() != PegasusOp.READ_REPLY) {
            return;
        }
        String k = HexFormat.of().formatHex(m.key());
        InnetMessage best = newest.get(k);
        if (best == null || m.seq() > best.seq()) {
            newest.put(k, m);
        }
    }

    /** The newest copy of each formerly replicated key to its home, and its client tables too. */
    private void collapseToHomes() {
        for (byte[] key : keys) {
            int home = controller.hostOfIndex(controller.homeIndex(key));
            InnetMessage best = newest.get(HexFormat.of().formatHex(key));
            if (best != null && best.seq() > 0) {
                boolean deleted = best.status() != KvStatus.OK;
                requests.send(home, PegasusOp.REPLICATE, deleted ? PegasusOp.FLAG_DELETED : 0, key, best.seq(), 0,
                        deleted ? new byte[0] : best.value());
            }
            migrations.add(new TableMigration(controller, key, controller.serverHostsExcept(controller.homeIndex(key)),
                    List.of(home)));
        }
    }

    @Override
    public boolean onReply(PegasusPacket p) {
        if (requests.onReply(p)) {
            return true;
        }
        for (TableMigration m : migrations) {
            if (m.onReply(p)) {
                return true;
            }
        }
        return false;
    }
}
