package dev.innet.switchapi;

/** A rejected control-plane request. The switch state is unchanged when this is thrown. */
public final class ControlException extends RuntimeException {
    public ControlException(String message) {
        super(message);
    }
}
