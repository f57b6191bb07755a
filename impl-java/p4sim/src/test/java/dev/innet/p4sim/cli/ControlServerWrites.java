package dev.innet.p4sim.cli;

/** Opens {@link ControlServer#isWrite} (package-private) to the tests of other packages. */
public final class ControlServerWrites {
    private ControlServerWrites() {
    }

    public static boolean isWrite(String command) {
        return ControlServer.isWrite(command);
    }
}
