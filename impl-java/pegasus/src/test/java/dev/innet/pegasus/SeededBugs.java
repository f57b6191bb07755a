package dev.innet.pegasus;

import static org.junit.jupiter.api.Assertions.fail;

import dev.innet.kv.store.StoredRecord;
import dev.innet.pegasus.server.ClientTable;
import dev.innet.pegasus.server.PegasusServer;
import dev.innet.rack.RackRuns;
import dev.innet.wire.InnetMessage;
import dev.innet.wire.UdpFrame;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The buggy variants of specs/pegasus/MANIFEST (the {@code violates} lines) recreated as implementation
 * bugs, in test code only: server subclasses, and copies of p4/pegasus.p4 with one rule changed, written
 * under target/ (the rack compiles them with p4/ on the include path).
 */
final class SeededBugs {
    private SeededBugs() {}

    /** MCPegasus_AcceptLower: servers apply a write whatever its version. */
    static PegasusProtocol serversAcceptingLowerVersions(PegasusProtocol p) {
        return p.withServers((rack, opener) -> new PegasusServer(rack, opener) {
            @Override
            protected boolean accepts(Optional<StoredRecord> current, long version) {
                return true;
            }
        });
    }

    /** MCPegasus_NoAMO: detectors keep no client table, so a retried write executes again. */
    static PegasusProtocol serversWithoutClientTables(PegasusProtocol p) {
        return p.withServers((rack, opener) -> new PegasusServer(rack, opener) {
            @Override
            protected Optional<ClientTable.Entry> recordedRequest(UdpFrame f, InnetMessage m) {
                return Optional.empty();
            }
        });
    }

    /** MCPegasus_BlindDupReply: a duplicate's reply names the detector even if it lacks the version. */
    static PegasusProtocol blindDuplicateReplies(PegasusProtocol p) {
        return p.withServers((rack, opener) -> new PegasusServer(rack, opener) {
            @Override
            protected int duplicateReplySource(byte[] key, long recorded) {
                return myIndex();
            }
        });
    }

    /** MCPegasus_ForwardUnvouched: replies no server vouches for are forwarded. */
    static Path switchForwardingUnvouchedReplies() throws IOException {
        return variant("bug-forward-unvouched", "drop_pegasus(PEG_DROP_UNVOUCHED);", "/* seeded bug: forwarded */");
    }

    /** MCPegasus_NoReset: Algorithm 2 on a higher version keeps the old replica set. */
    static Path switchWithoutRsetReset() throws IOException {
        return variant("bug-no-reset", """
                            ver_completed.write(index, v);
                            rset_reset(index, s);""", """
                            ver_completed.write(index, v); /* seeded bug: rset not reset */""");
    }

    /** MCPegasus_AddOnLower: Algorithm 2 adds the replying server on a lower version too. */
    static Path switchAddingOnLowerVersions() throws IOException {
        return variant("bug-add-on-lower", "} else if (v == completed) {", "} else { /* seeded bug: also lower */");
    }

    /** MCPegasus_EarlyRemove: a marked key leaves the directory when its write is sent home. */
    static Path switchRemovingEarly() throws IOException {
        return variant("bug-early-remove", """
                        /* unreplicated or marked: home (the original destination)
                         * is the detector */""", """
                        if (meta.key_state == KEY_MARKED) { /* seeded bug: removed before home's reply */
                            key_state.write(index, KEY_INACTIVE);
                        }""");
    }

    static Path variant(String name, String rule, String replacement) throws IOException {
        Path real = RackRuns.root().resolve(new PegasusProtocol().p4Program());
        String source = Files.readString(real);
        // the rule as tokens separated by any white space, so indentation does not matter
        Pattern p = Pattern.compile(Arrays.stream(rule.trim().split("\\s+")).map(Pattern::quote)
                .collect(Collectors.joining("\\s+")));
        Matcher m = p.matcher(source);
        if (!m.find() || m.find()) {
            fail("pegasus.p4 no longer has exactly one '" + rule.trim() + "'; update the seeded bug " + name);
        }
        Path out = Path.of("target", name + ".p4").toAbsolutePath();
        Files.createDirectories(out.getParent());
        Files.writeString(out, p.matcher(source).replaceFirst(Matcher.quoteReplacement(replacement)));
        return out;
    }
}
