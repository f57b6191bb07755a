package dev.innet.tracecheck;

/** The NDJSON is not a trace this converter understands (malformed line, missing field, unsupported event). */
public final class TraceFormatException extends RuntimeException {
    public TraceFormatException(String message) {
        super(message);
    }
}
