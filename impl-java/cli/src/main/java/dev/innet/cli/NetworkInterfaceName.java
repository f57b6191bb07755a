package dev.innet.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * A picocli converter for the name of a network interface that exists on this machine. Linux lists
 * every interface as a directory under {@code /sys/class/net}; asking there (rather than opening a
 * socket on it) checks the name without privileges and without side effects, so a command can
 * reject an unknown interface before it starts anything.
 */
public final class NetworkInterfaceName implements CommandLine.ITypeConverter<String> {
    private static final Path SYSFS_NET = Path.of("/sys/class/net");
    /** IFNAMSIZ (16) minus the terminating NUL: the kernel refuses longer names. */
    private static final int MAX_LENGTH = 15;

    @Override
    public String convert(String value) {
        return requireExisting(value);
    }

    /** Returns {@code name} if it names an existing interface; otherwise throws the message to show. */
    public static String requireExisting(String name) {
        // A '/' or a dot-name would resolve to some other sysfs path and pass the existence check.
        if (name.isEmpty() || name.length() > MAX_LENGTH || name.contains("/") || name.equals(".")
                || name.equals("..") || name.chars().anyMatch(Character::isWhitespace)) {
            throw new CommandLine.TypeConversionException("not a network interface name: '" + name + "'");
        }
        if (!Files.isDirectory(SYSFS_NET.resolve(name))) {
            throw new CommandLine.TypeConversionException("no such network interface: '" + name + "'");
        }
        return name;
    }
}
