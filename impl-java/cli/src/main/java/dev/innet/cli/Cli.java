package dev.innet.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs a picocli command with innet's conventions, shared by every Java entry point:
 * <ul>
 *   <li>{@code --help} prints the usage on stdout and exits 0;</li>
 *   <li>a bad argument (unknown option, a value that does not convert, a missing value or file, an
 *       unknown interface or program) prints one line on stderr that names it, exits
 *       {@link #EXIT_USAGE}, and runs nothing: conversion and validation happen before the command's
 *       {@code call()}, or at its very start through {@link #usageError};</li>
 *   <li>otherwise the command's own exit code.</li>
 * </ul>
 * An unexpected exception from the command is not an argument error: it keeps its stack trace and
 * exits 1, so real bugs stay visible.
 *
 * <p>A converter on a multi-value positional parameter ({@code arity = "0..*"}) cannot report its
 * reason: picocli treats the value it rejects as an unmatched argument ("Unmatched argument at index
 * 1: 'x'"). Check such values at the start of {@code call()} with {@link #usageError} instead.
 */
public final class Cli {
    public static final int EXIT_USAGE = 2;

    private Cli() {}

    /** Runs {@code command} (a picocli {@code @Command}) on {@code args}; returns the exit code. */
    public static int run(String name, Object command, String[] args, PrintStream out, PrintStream err) {
        return run(name, command, java.util.Map.of(), args, out, err);
    }

    /**
     * As {@link #run(String, Object, String[], PrintStream, PrintStream)}, with more options from
     * {@code mixins} (name to an object with picocli {@code @Option} fields): a module that extends
     * another module's command (p4runtime extends p4sim) adds its options this way.
     */
    public static int run(String name, Object command, java.util.Map<String, Object> mixins, String[] args,
                          PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(command);
        mixins.forEach(cl::addMixin);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, ignoredArgs) -> usageLine(name, messageNamingTheCulprit(ex), err));
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof CommandLine.ParameterException pe) {
                return usageLine(name, pe.getMessage(), err);
            }
            throw ex;
        });
        return cl.execute(args);
    }

    /** Runs a command and exits the JVM with its code: the body of every {@code main}. */
    public static void main(String name, Object command, String[] args) {
        System.exit(run(name, command, args, System.out, System.err));
    }

    /**
     * An argument problem found while the command starts (a file that does not exist, an unknown
     * program): throw the result from {@code call()} before doing any work.
     */
    public static CommandLine.ParameterException usageError(CommandLine.Model.CommandSpec spec, String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * picocli checks required options before it complains about arguments it did not recognise, so
     * {@code --programm x} would be reported as "missing --program". The unrecognised argument is the
     * one the user typed (usually the misspelt required option): name it instead.
     */
    private static String messageNamingTheCulprit(CommandLine.ParameterException ex) {
        List<String> unmatched = ex.getCommandLine().getUnmatchedArguments();
        if (ex instanceof CommandLine.MissingParameterException && !unmatched.isEmpty()) {
            return new CommandLine.UnmatchedArgumentException(ex.getCommandLine(), unmatched).getMessage();
        }
        return ex.getMessage();
    }

    private static int usageLine(String name, String message, PrintStream err) {
        err.println(name + ": " + message + " (--help for usage)");
        return EXIT_USAGE;
    }
}
