package dev.innet.visibility;

import dev.innet.visibility.wire.KeyHasher;
import dev.innet.visibility.wire.VisExt;
import java.util.List;

/**
 * Who is who in a visibility rack: the first server host is the metadata node, the others are data
 * nodes; a key's slot (hash index) picks its data node, so keys of one slot share a timestamp source
 * (§III-B 1, Fig. 3).
 *
 * @param metadataNode   host of the metadata node
 * @param dataNodes      hosts of the data nodes
 * @param hasher         key -> (index, fingerprint)
 * @param timeoutNanos   the paper's timeout (§III-E 1: 500 us, about 100 round trips): clients' retries,
 *                       clear retries, recovery rounds
 */
public record RackRoles(int metadataNode, List<Integer> dataNodes, KeyHasher hasher, long timeoutNanos) {
    public RackRoles {
        dataNodes = List.copyOf(dataNodes);
        if (dataNodes.isEmpty()) {
            throw new IllegalArgumentException("a visibility rack needs 2+ servers: a metadata node and a data node");
        }
    }

    public static RackRoles of(List<Integer> servers, KeyHasher hasher, long timeoutNanos) {
        if (servers.size() < 2) {
            throw new IllegalArgumentException("a visibility rack needs 2+ servers (a metadata node and 1+ data nodes), got "
                    + servers.size());
        }
        return new RackRoles(servers.get(0), servers.subList(1, servers.size()), hasher, timeoutNanos);
    }

    public int dataNodeOf(VisExt ext) {
        return dataNodes.get(ext.index() % dataNodes.size());
    }
}
