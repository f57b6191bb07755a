package dev.innet.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** A picocli converter for a path that must exist, as a file or as a directory. */
public final class ExistingPath implements CommandLine.ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
        Path p = Path.of(value);
        if (!Files.exists(p)) {
            throw new CommandLine.TypeConversionException("no such file or directory: " + value);
        }
        return p;
    }
}
