package dev.innet.verify.mutate;

import dev.innet.verify.mutate.Catalogue.SourceKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A checking layer of innet, as a set of commands run in a source tree. A layer "catches" a bug when its
 * commands all pass on the clean tree and one of them fails with the bug seeded. A layer that cannot read
 * the mutated source (the spec layer for a Java bug) does not run: n/a.
 */
public enum Layer {
    /** TLC on the protocol's spec models (specs/P/MANIFEST, small and medium tiers, buggy variants included). */
    SPEC("spec") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.TLA);
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            return List.of(List.of("./innet", "check", "--tier", "small,medium", "specs/" + bug.protocol()));
        }
    },
    /** ivy_check on the protocol's proofs (models/P/MANIFEST). */
    IVY("ivy") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.IVY);
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            return List.of(List.of("./innet", "check", "models/" + bug.protocol()));
        }
    },
    /** Every p4/*.p4 with its STF scenarios on p4sim (RepoProgramsTest). */
    STF("stf") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.P4);
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            return List.of(maven("dev.innet.p4sim.RepoProgramsTest", "p4sim"));
        }
    },
    /**
     * mvn test of the protocol's module and of every module a Java edit is in (unit, scenario and the
     * module's CI-sized rack campaigns).
     */
    UNIT("unit") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.JAVA) || kinds.contains(SourceKind.P4);
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            Set<String> modules = new LinkedHashSet<>();
            modules.add(bug.protocol());
            for (Catalogue.Edit e : bug.edits()) {
                String module = javaModuleOf(e.path());
                if (module != null) {
                    modules.add(module);
                }
            }
            List<String> patterns = new ArrayList<>();
            for (String m : modules) {
                patterns.add("dev.innet." + m.replace("-", "") + ".**");
            }
            // the modules' rack tests run the porcupine checker, which a fresh scratch tree has not built
            // (the other layers' ./innet commands build it; maven alone does not): a unit-only run failed
            // every baseline with "porcupine checker not built"
            return List.of(List.of("./innet", "lincheck", "-h"),
                    maven(String.join(",", patterns), String.join(",", modules)));
        }
    },
    /** Simulated fault campaigns, ./innet sim (porcupine, lost writes, the protocol's monitors). */
    CAMPAIGN("campaign") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.JAVA) || kinds.contains(SourceKind.P4);
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            List<List<String>> commands = new ArrayList<>();
            commands.add(List.of("./innet", "sim", "--program", bug.protocol(), "--seeds", "4", "--validate", "0"));
            if (CRASHING_WHEN_ASKED.contains(bug.protocol())) {
                commands.add(List.of("./innet", "sim", "--program", bug.protocol(), "--seeds", "4", "--crashes", "all",
                        "--validate", "0"));
            }
            return commands;
        }
    },
    /**
     * Both conformance directions: spec behaviours replayed on the code, and one run validated by TLC. A bug
     * with code edits is seeded in the code only: conformance asks whether the code agrees with the correct
     * spec. Seeded in the spec as well, TLC's simulation of the buggy spec can stop at the invariant it breaks
     * before anything is replayed, and the layer would only repeat the spec layer's catch.
     */
    CONFORMANCE("conformance") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.JAVA) || kinds.contains(SourceKind.P4) || kinds.contains(SourceKind.TLA);
        }

        @Override
        Catalogue.Bug seeded(Catalogue.Bug bug) {
            Set<SourceKind> code = Set.of(SourceKind.JAVA, SourceKind.P4);
            return bug.kinds().stream().anyMatch(code::contains) ? bug.onlyIn(code) : bug;
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            return List.of(List.of("./innet", "conform", "--protocol", bug.protocol(), "--simulate", "20"),
                    List.of("./innet", "sim", "--program", bug.protocol(), "--seeds", "1", "--validate", "1"));
        }
    },
    /**
     * A short live campaign under every nemesis (needs network namespaces), in the protocol's campaign shape as
     * {@code ./innet sim} runs it (the visibility layer's keys collide in a few switch slots).
     */
    JEPSEN("jepsen") {
        @Override
        boolean sees(Set<SourceKind> kinds) {
            return kinds.contains(SourceKind.JAVA) || kinds.contains(SourceKind.P4);
        }

        @Override
        List<List<String>> commands(Catalogue.Bug bug) {
            return List.of(List.of("./innet", "jepsen", "--protocol", bug.protocol(), "--nemesis", "all", "--time", "20",
                    "--rate", "150", "--clients", "2", "--keys", "6", "--quiet", "1s", "--hold", "1s", "--seed", "5",
                    "--campaign-shape"));
        }
    };

    /**
     * Protocols whose {@code ./innet sim} crashes hosts and switches with {@code --crashes} (FarReach: snapshots and
     * crashes, explicitly; Pegasus: its switch recovery; across racks a whole rack; visibility: the crashes it
     * declares in {@code Protocol.recoverableCrashes}): the campaign layer runs those campaigns as well. This module
     * does not see the protocol registry, so the list is kept here (docs/verification.md).
     */
    static final Set<String> CRASHING_WHEN_ASKED = Set.of("farreach", "pegasus", "pegasus-chain", "visibility");

    private final String label;

    Layer(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether this layer reads any source of these kinds (else a bug there is n/a for it). */
    abstract boolean sees(Set<SourceKind> kinds);

    /** The commands, run from the tree's root; the layer catches the bug if one fails. */
    abstract List<List<String>> commands(Catalogue.Bug bug);

    /** The edits this layer runs with: all of the bug's, unless a layer says otherwise. */
    Catalogue.Bug seeded(Catalogue.Bug bug) {
        return bug;
    }

    public static Layer byLabel(String label) {
        for (Layer l : values()) {
            if (l.label.equals(label)) {
                return l;
            }
        }
        throw new IllegalArgumentException("no layer '" + label + "' (layers: " + labels() + ")");
    }

    public static List<String> labels() {
        return java.util.Arrays.stream(values()).map(Layer::label).toList();
    }

    /** impl-java/MODULE/src/... -> MODULE; null for other paths. */
    static String javaModuleOf(String path) {
        String[] parts = path.split("/");
        return parts.length > 2 && parts[0].equals("impl-java") && path.endsWith(".java") ? parts[1] : null;
    }

    private static List<String> maven(String tests, String modules) {
        return List.of("bash", "-c", "cd impl-java && mvn -B -q -o test -pl " + modules + " -am -Dtest='" + tests
                + "' -Dsurefire.failIfNoSpecifiedTests=false");
    }
}
