package dev.innet.protocol;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The protocols on the class path, found through {@link ServiceLoader}: the only way the harness and
 * the command line reach a protocol. Adding a protocol is adding a module that registers one
 * {@link Protocol} (docs/adding-a-protocol.md).
 */
public final class ProtocolRegistry {
    private ProtocolRegistry() {}

    /** Every registered protocol, sorted by name; two with one name is an error. */
    public static List<Protocol> all() {
        TreeMap<String, Protocol> byName = new TreeMap<>();
        for (Protocol p : ServiceLoader.load(Protocol.class, ProtocolRegistry.class.getClassLoader())) {
            Protocol clash = byName.put(p.name(), p);
            if (clash != null) {
                throw new IllegalStateException("two protocols are registered as '" + p.name() + "': "
                        + clash.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        return List.copyOf(byName.values());
    }

    /** The registered protocol called {@code name}; an unknown name says which ones exist. */
    public static Protocol byName(String name) {
        for (Protocol p : all()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + name + "' (registered: " + names() + ")");
    }

    public static List<String> names() {
        return all().stream().map(Protocol::name).toList();
    }
}
