package dev.innet.sim.history;

/** The client operations a history records ({@code "op"} in docs/history-format.md). */
public enum OpKind {
    GET("get"), PUT("put"), DELETE("delete");

    private final String json;

    OpKind(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
