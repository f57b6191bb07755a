package dev.innet.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** A picocli converter for a path that must name an existing, readable regular file. */
public final class ExistingFile implements CommandLine.ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
        Path p = Path.of(value);
        if (!Files.isRegularFile(p)) {
            throw new CommandLine.TypeConversionException("no such file: " + value);
        }
        if (!Files.isReadable(p)) {
            throw new CommandLine.TypeConversionException("cannot read " + value);
        }
        return p;
    }
}
