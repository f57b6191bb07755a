package dev.innet.verify;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the verification runner was asked to do, after its command line (VerifyMain) was checked.
 *
 * @param ivyBmcSteps 0: prove the Ivy models (the inductive check); N &gt; 0: bounded model checking
 *                    of the Ivy models for N steps from the initial state instead
 */
record Options(Path root, List<Path> paths, boolean small, boolean full, int jobs, Duration smallLimit,
        Duration fullLimit, int ivyBmcSteps) {

    boolean includes(ManifestEntry.Tier tier) {
        return tier == ManifestEntry.Tier.SMALL ? small : full;
    }

    String tierName() {
        return small && full ? "all" : small ? "small" : "full";
    }

    boolean ivyBoundedModelChecking() {
        return ivyBmcSteps > 0;
    }
}
