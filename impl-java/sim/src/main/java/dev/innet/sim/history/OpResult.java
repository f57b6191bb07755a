package dev.innet.sim.history;

/** What the client observed ({@code "result"}). */
public enum OpResult {
    /** Completed; a get found a value. */
    OK("ok"),
    /** A get or stat completed and found no value, or a write found no file. */
    NOT_FOUND("not_found"),
    /** A create completed and found the file already there. */
    EXISTS("exists"),
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
