package dev.innet.p4runtime;

import io.grpc.Status;

/** A request the server rejects: the gRPC status code P4Runtime prescribes and a message naming the culprit. */
final class P4RuntimeError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final Status.Code code;

    P4RuntimeError(Status.Code code, String message) {
        super(message);
        this.code = code;
    }

    static P4RuntimeError invalid(String message) {
        return new P4RuntimeError(Status.Code.INVALID_ARGUMENT, message);
    }

    static P4RuntimeError notFound(String message) {
        return new P4RuntimeError(Status.Code.NOT_FOUND, message);
    }

    static P4RuntimeError unimplemented(String message) {
        return new P4RuntimeError(Status.Code.UNIMPLEMENTED, message);
    }

    io.grpc.StatusRuntimeException toStatus() {
        return code.toStatus().withDescription(getMessage()).asRuntimeException();
    }
}
