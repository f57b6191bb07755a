package dev.innet.p4runtime;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * P4Runtime ids as p4c's control-plane code assigns them: the high byte is the entity's
 * {@code P4Ids.Prefix}, the low 24 bits come from {@code @id} when the program gives one (the prefix is
 * added, or checked when present), otherwise from the Jenkins one-at-a-time hash of the entity's fully
 * qualified name. Names without {@code @id} are hashed in sorted order and a collision moves to the next
 * free value (linear probing), so the ids depend only on the set of names, not on declaration order.
 */
final class IdAllocator {
    private final Set<Integer> assigned = new HashSet<>();
    /** per prefix: name -> explicit @id (or null), in the order of {@link #declare} */
    private final Map<Integer, Map<String, Integer>> declared = new TreeMap<>();

    /** Declares an entity; {@code explicitId} is its {@code @id} value or null. */
    void declare(int prefix, String name, Integer explicitId) {
        declared.computeIfAbsent(prefix, p -> new LinkedHashMap<>()).putIfAbsent(name, explicitId);
    }

    /** Every declared name with its id, by prefix; throws IllegalArgumentException on a bad or repeated @id. */
    Map<Integer, Map<String, Integer>> assign() {
        Map<Integer, Map<String, Integer>> out = new TreeMap<>();
        // explicit ids first, everywhere, so hashed ids probe around them
        for (Map.Entry<Integer, Map<String, Integer>> byPrefix : declared.entrySet()) {
            int prefix = byPrefix.getKey();
            Map<String, Integer> ids = out.computeIfAbsent(prefix, p -> new TreeMap<>());
            for (Map.Entry<String, Integer> e : byPrefix.getValue().entrySet()) {
                if (e.getValue() == null) {
                    continue;
                }
                int id = e.getValue();
                int typePrefix = prefix << 24;
                if ((id & 0xff000000) != 0 && (id & 0xff000000) != typePrefix) {
                    throw new IllegalArgumentException(e.getKey() + ": @id " + Integer.toUnsignedString(id)
                            + " has the wrong 8-bit prefix (expected 0x" + Integer.toHexString(prefix) + ")");
                }
                id |= typePrefix;
                if (!assigned.add(id)) {
                    throw new IllegalArgumentException("@id " + Integer.toUnsignedString(id) + " is assigned to more than one declaration ("
                            + e.getKey() + ")");
                }
                ids.put(e.getKey(), id);
            }
        }
        for (Map.Entry<Integer, Map<String, Integer>> byPrefix : declared.entrySet()) {
            int prefix = byPrefix.getKey();
            Map<String, Integer> ids = out.get(prefix);
            TreeMap<String, Integer> sorted = new TreeMap<>(byPrefix.getValue());
            for (Map.Entry<String, Integer> e : sorted.entrySet()) {
                if (e.getValue() != null) {
                    continue;
                }
                int hash = jenkinsOneAtATime(e.getKey());
                int value = hash;
                while (assigned.contains(withPrefix(prefix, value))) {
                    value++;
                    if ((value & 0xffffff) == (hash & 0xffffff)) {
                        throw new IllegalArgumentException("no free P4Runtime id for " + e.getKey());
                    }
                }
                int id = withPrefix(prefix, value);
                assigned.add(id);
                ids.put(e.getKey(), id);
            }
        }
        return out;
    }

    private static int withPrefix(int prefix, int value) {
        return (prefix << 24) | (value & 0xffffff);
    }

    /** Bob Jenkins' one-at-a-time hash of the name's bytes (p4c hashes the C string). */
    static int jenkinsOneAtATime(String name) {
        int hash = 0;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash += b & 0xff;
            hash += hash << 10;
            hash ^= hash >>> 6;
        }
        hash += hash << 3;
        hash ^= hash >>> 11;
        hash += hash << 15;
        return hash;
    }
}
