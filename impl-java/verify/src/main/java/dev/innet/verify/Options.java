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
        Duration fullLimit, int ivyBmcSteps, Simulation simulation) {

    /**
     * TLC random simulation of the sim-tier models ({@code --simulate}); a sim model named on its own is
     * simulated with the defaults.
     */
    record Simulation(boolean selected, Duration budget, int depth, long seed) {}

    boolean includes(ManifestEntry.Tier tier) {
        if (simulation.selected()) {
            return tier == ManifestEntry.Tier.SIM;
        }
        return switch (tier) {
            case SMALL -> small;
            case FULL -> full;
            case SIM -> false;
        };
    }

    String tierName() {
        return simulation.selected() ? "sim" : small && full ? "all" : small ? "small" : "full";
    }

    boolean ivyBoundedModelChecking() {
        return ivyBmcSteps > 0;
    }
}
