package dev.innet.p4sim.ports;

import java.io.IOException;

/** Sends one frame out of an interface now; thread-safe (the delayed sender and the pipeline share it). */
public interface FrameSender {
    void send(byte[] buf, int off, int len) throws IOException;
}
