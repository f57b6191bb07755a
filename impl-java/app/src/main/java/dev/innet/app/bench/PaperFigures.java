package dev.innet.app.bench;

import java.util.Map;

/**
 * What the FarReach paper (Sheng et al., ATC'23) states in its text about Exp#1-5, as ratios of
 * throughputs (its figures' data are not in the text; where the text gives a range, both ends are kept).
 * NaN: the paper gives no figure for that cell.
 */
public final class PaperFigures {
    private PaperFigures() {}

    /**
     * §5.2 Exp#1 on Load and D: "In the non-skewed workloads Load and D, both FarReach and NetCache have
     * similar throughput as NoCache due to limited cache hits", so both ratios are about 1.
     */
    private static final String NON_SKEWED = "§5.2 Exp#1: \"In the non-skewed workloads Load and D, both FarReach and"
            + " NetCache have similar throughput as NoCache\"";

    /** Exp#1 (Fig. 7, 16 servers): FarReach / NoCache per YCSB workload. */
    public static final Map<String, Stated> EXP1_FR_OVER_NOCACHE = Map.of(
            "A", Stated.of(1.91, "§5.2 Exp#1: +91%"), "B", Stated.of(1.55, "§5.2 Exp#1: +55%"),
            "C", Stated.of(1.85, "§5.2 Exp#1: +85%"), "D", Stated.of(1.0, NON_SKEWED),
            "F", Stated.of(1.72, "§5.2 Exp#1: +72%"), "Load", Stated.of(1.0, NON_SKEWED));

    /** Exp#1 (Fig. 7, 16 servers): FarReach / NetCache per YCSB workload. */
    public static final Map<String, Stated> EXP1_FR_OVER_NETCACHE = Map.of(
            "A", Stated.of(1.84, "§5.2 Exp#1: +84%"), "B", Stated.of(1.20, "§5.2 Exp#1: +20%"),
            "C", Stated.of(1.0, "§5.2 Exp#1: \"similar throughput as NetCache in workload C\""),
            "D", Stated.of(1.0, NON_SKEWED), "F", Stated.of(1.61, "§5.2 Exp#1: +61%"),
            "Load", Stated.of(1.0, NON_SKEWED));

    /** Exp#3 (Fig. 9, YCSB A): FarReach / NoCache = FarReach / NetCache ("very similar") per server count. */
    public static final Map<Integer, Stated> EXP3_FR_GAIN = Map.of(
            16, Stated.of(1.9, "§5.2 Exp#3"), 32, Stated.of(2.5, "§5.2 Exp#3"),
            64, Stated.of(3.9, "§5.2 Exp#3"), 128, Stated.of(6.6, "§5.2 Exp#3"));

    /** Exp#4 (Fig. 10, 16 servers, synthetic): FarReach / NoCache per write ratio (%). */
    public static Stated exp4FrOverNoCache(int writePercent) {
        return switch (writePercent) {
            case 0 -> Stated.of(1.67, "§5.3 Exp#4: +67-135%, lowest read-only (where FarReach = NetCache)");
            case 100 -> Stated.of(2.35, "§5.3 Exp#4: +135%, \"highest when the write ratio is 100%\"");
            default -> new Stated(1.67, 2.35, "§5.3 Exp#4: +67-135%");
        };
    }

    /** Exp#4 (Fig. 10, 16 servers, synthetic): FarReach / NetCache per write ratio (%). */
    public static Stated exp4FrOverNetCache(int writePercent) {
        return switch (writePercent) {
            case 0 -> Stated.of(1.0, "§5.3 Exp#4: \"similar throughput as NetCache when the write ratio is zero\"");
            case 25 -> Stated.of(1.48, "§5.3 Exp#4: +48-186% from 25% to 100%, lowest at 25%");
            case 100 -> Stated.of(2.86, "§5.3 Exp#4: +186%, highest at 100%");
            default -> new Stated(1.48, 2.86, "§5.3 Exp#4: +48-186%");
        };
    }

    /** Exp#5 (Fig. 11): every scheme ≈ 1 MOPS on uniform write-only keys (16 servers). */
    public static final double EXP5_UNIFORM_MOPS = 1.0;

    /** Exp#2 (Fig. 8, YCSB A, 16 servers): FarReach's mean latency at 0.8 MOPS is 65% below NoCache's, 72% below NetCache's. */
    public static final double EXP2_TARGET_MOPS = 0.8;
    public static final double EXP2_REDUCTION_VS_NOCACHE = 0.65;
    public static final double EXP2_REDUCTION_VS_NETCACHE = 0.72;
}
