package dev.innet.sim.guard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MemberRefEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A cheap guard for the simulator's rules (docs/simulator.md): reads compiled classes of protocol
 * packages and reports every reference to an API protocol code must not touch: threads and
 * concurrency, wall clocks, unseeded randomness, sockets, direct file I/O, identity hashes. It
 * looks at the constant pool, so it sees every class and method a class links against, including
 * through lambdas; it cannot see reflection, which protocol code has no reason to use.
 *
 * <p>Use it from a protocol module's test:
 * {@code ForbiddenApiScanner.assertClean(Path.of("target/classes"), "dev/innet/server/")}.
 */
public final class ForbiddenApiScanner {
    /** A forbidden reference: an owner (internal name, or a package prefix ending in '/') and optionally one member. */
    private record Rule(String owner, String member, String why) {
        boolean matches(String refOwner, String refMember) {
            boolean ownerMatches = owner.endsWith("/") ? refOwner.startsWith(owner) : refOwner.equals(owner);
            return ownerMatches && (member == null || member.equals(refMember));
        }
    }

    private static final List<Rule> RULES = List.of(
            new Rule("java/lang/Thread", null, "threads: the runtime calls handlers one at a time"),
            new Rule("java/lang/ThreadGroup", null, "threads"),
            new Rule("java/lang/ThreadLocal", null, "threads"),
            new Rule("java/util/concurrent/", null, "concurrency, executors, ThreadLocalRandom"),
            new Rule("java/util/Timer", null, "wall-clock timers: use Timers"),
            new Rule("java/util/TimerTask", null, "wall-clock timers: use Timers"),
            new Rule("java/lang/Object", "wait", "blocking"),
            new Rule("java/lang/Object", "notify", "blocking"),
            new Rule("java/lang/Object", "notifyAll", "blocking"),
            new Rule("java/lang/System", "currentTimeMillis", "wall clock: use Clock"),
            new Rule("java/lang/System", "nanoTime", "wall clock: use Clock"),
            new Rule("java/lang/System", "identityHashCode", "identity hashes differ between runs"),
            new Rule("java/time/Clock", null, "wall clock: use Clock"),
            new Rule("java/time/Instant", "now", "wall clock: use Clock"),
            new Rule("java/time/LocalDateTime", "now", "wall clock: use Clock"),
            new Rule("java/time/LocalDate", "now", "wall clock: use Clock"),
            new Rule("java/time/LocalTime", "now", "wall clock: use Clock"),
            new Rule("java/time/ZonedDateTime", "now", "wall clock: use Clock"),
            new Rule("java/time/OffsetDateTime", "now", "wall clock: use Clock"),
            new Rule("java/util/Random", null, "unseeded or hidden random state: use RandomSource"),
            new Rule("java/security/SecureRandom", null, "unseeded randomness: use RandomSource"),
            new Rule("java/lang/Math", "random", "unseeded randomness: use RandomSource"),
            new Rule("java/lang/StrictMath", "random", "unseeded randomness: use RandomSource"),
            new Rule("java/util/UUID", "randomUUID", "unseeded randomness: use RandomSource"),
            new Rule("java/net/", null, "sockets: use Network"),
            new Rule("java/nio/channels/", null, "sockets and blocking I/O: use Network"),
            new Rule("java/nio/file/Files", null, "direct file I/O: use DurableStore"),
            new Rule("java/io/FileInputStream", null, "direct file I/O: use DurableStore"),
            new Rule("java/io/FileOutputStream", null, "direct file I/O: use DurableStore"),
            new Rule("java/io/RandomAccessFile", null, "direct file I/O: use DurableStore"),
            new Rule("java/io/FileReader", null, "direct file I/O: use DurableStore"),
            new Rule("java/io/FileWriter", null, "direct file I/O: use DurableStore"),
            new Rule("java/lang/ProcessBuilder", null, "processes"),
            new Rule("java/lang/Runtime", null, "processes and JVM state"));

    private ForbiddenApiScanner() {
    }

    /**
     * Every forbidden reference in classes under {@code classesRoot} whose internal name starts with
     * {@code packagePrefix} (e.g. {@code dev/innet/server/}), as sorted lines "Class: owner.member (why)".
     */
    public static List<String> violations(Path classesRoot, String packagePrefix) {
        return violations(classesRoot, packagePrefix, true);
    }

    /** As {@link #violations(Path, String)}; with {@code recursive} false, sub-packages are left out. */
    public static List<String> violations(Path classesRoot, String packagePrefix, boolean recursive) {
        TreeSet<String> found = new TreeSet<>();
        Path packageDir = classesRoot.resolve(packagePrefix);
        if (!Files.isDirectory(packageDir)) {
            throw new IllegalArgumentException("no compiled classes at " + packageDir);
        }
        try (Stream<Path> files = recursive ? Files.walk(packageDir) : Files.list(packageDir)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                scanClass(Files.readAllBytes(file), found);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading classes under " + packageDir, e);
        }
        return new ArrayList<>(found);
    }

    /** Throws an AssertionError listing every violation, if there is any. */
    public static void assertClean(Path classesRoot, String packagePrefix) {
        List<String> v = violations(classesRoot, packagePrefix);
        if (!v.isEmpty()) {
            throw new AssertionError("protocol code under " + packagePrefix + " breaks the simulator's rules "
                    + "(docs/simulator.md):\n  " + String.join("\n  ", v));
        }
    }

    private static void scanClass(byte[] bytes, TreeSet<String> found) {
        ClassModel model = ClassFile.of().parse(bytes);
        String self = model.thisClass().asInternalName();
        for (PoolEntry entry : model.constantPool()) {
            String owner;
            String member;
            if (entry instanceof MemberRefEntry ref) {
                owner = ref.owner().asInternalName();
                member = ref.nameAndType().name().stringValue();
            } else if (entry instanceof ClassEntry c) {
                owner = c.asInternalName();
                member = null;
            } else {
                continue;
            }
            for (Rule rule : RULES) {
                // A class entry alone names a class; member rules need the member reference.
                if ((member != null || rule.member() == null) && rule.matches(owner, member)) {
                    found.add(self.replace('/', '.') + ": " + owner.replace('/', '.')
                            + (member == null ? "" : "." + member) + " (" + rule.why() + ")");
                }
            }
        }
    }
}
