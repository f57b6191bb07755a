package dev.innet.pegasus.controller;

/** A procedure on one directory slot: its key, the slot's index and the key's home server index. */
abstract class KeyProcedure implements Procedure {
    protected final PegasusController controller;
    protected final byte[] key;
    protected final int index;
    protected final int home;

    KeyProcedure(PegasusController controller, byte[] key, int index) {
        this.controller = controller;
        this.key = key;
        this.index = index;
        this.home = controller.homeIndex(key);
    }
}
