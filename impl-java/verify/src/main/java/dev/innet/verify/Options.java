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
record Options(Path root, List<Path> paths, boolean small, boolean medium, boolean full, int jobs, Duration smallLimit,
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
            case MEDIUM -> medium;
            case FULL -> full;
            case SIM -> false;
        };
    }

    String tierName() {
        if (simulation.selected()) {
            return "sim";
        }
        List<String> names = new java.util.ArrayList<>();
        if (small) {
            names.add("small");
        }
        if (medium) {
            names.add("medium");
        }
        if (full) {
            names.add("full");
        }
        return names.size() == 3 ? "all" : String.join("+", names);
    }

    boolean ivyBoundedModelChecking() {
        return ivyBmcSteps > 0;
    }
}
