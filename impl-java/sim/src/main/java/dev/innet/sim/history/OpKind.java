package dev.innet.sim.history;

/**
 * The client operations a history records ({@code "op"} in docs/history-format.md): a register's get, put
 * and delete (§3.1), or a file's create, write and stat (§3.2). A key's operations are of one family.
 */
public enum OpKind {
    GET("get"), PUT("put"), DELETE("delete"), CREATE("create"), WRITE("write"), STAT("stat");

    private final String json;

    OpKind(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }

    /** get and stat: they observe the state (an {@code ok} one records the value read) and change nothing. */
    public boolean reads() {
        return this == GET || this == STAT;
    }

    /** put, create and write: they record at invocation the value they write. */
    public boolean writesValue() {
        return this == PUT || this == CREATE || this == WRITE;
    }

    /** create, write and stat: a file's operations. */
    public boolean isFile() {
        return this == CREATE || this == WRITE || this == STAT;
    }
}
