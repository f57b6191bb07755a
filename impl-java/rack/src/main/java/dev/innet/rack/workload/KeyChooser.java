package dev.innet.rack.workload;

import dev.innet.sim.RandomSource;

/**
 * Where a workload client's keys come from: the index of the next key (0 .. keys-1), drawn from the
 * client's seeded random source so every run replays. {@link ZipfianGenerator} is the default; a benchmark
 * can give the rack another (YCSB's own generators through a seeded adapter, a larger rank space).
 */
public interface KeyChooser {
    long next(RandomSource random);
}
