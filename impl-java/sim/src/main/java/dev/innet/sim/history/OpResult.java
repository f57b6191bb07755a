package dev.innet.sim.history;

/** What the client observed ({@code "result"}). */
public enum OpResult {
    /** Completed; a get found a value. */
    OK("ok"),
    /** A get completed and found no value. */
    NOT_FOUND("not_found"),
    /** Definitely did not take effect (an error reply). */
    FAIL("fail"),
    /** Timed out or the client crashed: may or may not have taken effect, at any later time. */
    UNKNOWN("unknown");

    private final String json;

    OpResult(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
