package dev.innet.pegasus.controller;

import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.wire.PegasusOp;
import dev.innet.pegasus.wire.PegasusPacket;
import dev.innet.wire.InnetMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * §6.4 client-table migration for one key while its writes are paused: the entries of the source
 * servers are read and merged into the target servers (latest request per client wins). Adding a key
 * copies home's entries to every other server; removing one (and switch recovery) aggregates every
 * server's entries at home.
 */
final class TableMigration {
    private static final int ENTRIES_PER_MESSAGE = InnetMessage.MAX_VALUE_BYTES / ClientTable.ENTRY_BYTES;

    private final ServerRequests requests;
    private final byte[] key;
    private final List<Integer> targets;
    private final List<ClientTable.Entry> entries = new ArrayList<>();
    private boolean merging;

    TableMigration(PegasusController controller, byte[] key, List<Integer> sources, List<Integer> targets) {
        this.requests = new ServerRequests(controller);
        this.key = key;
        this.targets = List.copyOf(targets);
        for (int s : sources) {
            requests.send(s, PegasusOp.TABLE_READ, 0, key, 0, 0, new byte[0]);
        }
    }

    boolean onReply(PegasusPacket p) {
        return requests.onReply(p);
    }

    /** Advances the migration; true when every target has merged every entry. */
    boolean step() {
        boolean settled = requests.settled();
        for (PegasusPacket a : requests.drainAnswers()) {
            if (!merging) {
                entries.addAll(ClientTable.decode(a.message().value()));
            }
        }
        if (!settled) {
            return false;
        }
        if (merging || entries.isEmpty()) {
            return true;
        }
        merging = true;
        for (int from = 0; from < entries.size(); from += ENTRIES_PER_MESSAGE) {
            byte[] chunk = ClientTable.encode(entries.subList(from, Math.min(entries.size(), from + ENTRIES_PER_MESSAGE)));
            for (int t : targets) {
                requests.send(t, PegasusOp.TABLE_MERGE, 0, key, 0, 0, chunk);
            }
        }
        return false;
    }
}
