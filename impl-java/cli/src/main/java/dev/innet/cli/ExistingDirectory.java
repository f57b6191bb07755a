package dev.innet.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** A picocli converter for a path that must name an existing directory. */
public final class ExistingDirectory implements CommandLine.ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
        Path p = Path.of(value);
        if (!Files.isDirectory(p)) {
            throw new CommandLine.TypeConversionException("no such directory: " + value);
        }
        return p;
    }
}
