package dev.innet.app.bench.visibility;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The paper's baseline (§V-A 1: "this same switch was configured to act purely as a forwarding device"):
 * p4/visibility.p4 with its install rule W2 turned off. No entry is ever installed, so every write reply
 * passes unmarked (W3) and the client takes the ordered second phase, every read misses (R2) and goes to
 * the metadata node, and the other rules never find a valid entry: the switch only forwards. The same
 * Java nodes and clients run on it, so the baseline is the real ordered-write path of the implementation.
 */
final class OrderedWriteBaseline {
    /** W2's condition in p4/visibility.p4; the bench fails loudly if the program no longer has it. */
    static final String INSTALL_CONDITION = "if (valid == 0 && ts > max_ts && meta.meta_parsed) {     /* W2 */";

    static final String FILE_NAME = "visibility-ordered-write.p4";

    private OrderedWriteBaseline() {}

    /** Writes the baseline program next to {@code into} and returns its path. */
    static Path write(Path repositoryRoot, Path into) throws IOException {
        String source = Files.readString(repositoryRoot.resolve("p4/visibility.p4"));
        int at = source.indexOf(INSTALL_CONDITION);
        if (at < 0 || source.indexOf(INSTALL_CONDITION, at + 1) >= 0) {
            throw new IllegalStateException("p4/visibility.p4 no longer has exactly one install rule W2 ("
                    + INSTALL_CONDITION + "): the ordered-write baseline cannot be derived from it");
        }
        Files.createDirectories(into);
        Path out = into.resolve(FILE_NAME);
        Files.writeString(out, source.replace(INSTALL_CONDITION, "if (false) {     /* W2 off: ordered-write baseline */"));
        return out;
    }
}
