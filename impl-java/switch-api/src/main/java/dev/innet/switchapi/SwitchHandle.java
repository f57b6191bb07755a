package dev.innet.switchapi;



/**
 * The controller's connection to the switch's control plane. A switch crash loses every table and
 * register; its restart brings a new, empty switch, and {@link #generation()} changes so the switch OS
 * can tell it must program the switch again (as a P4Runtime client sees its stream reset).
 * Control calls are synchronous and take effect at the simulated instant they are made.
 */
public final class SwitchHandle {
    private SwitchControl control;
    private int generation;
    private boolean up;

    /** Called by the rack when a (new) switch instance starts. */
    public void attach(SwitchControl newControl) {
        this.control = newControl;
        this.generation++;
        this.up = true;
    }

    /** Called by the rack when the switch crashes. */
    public void detach() {
        this.up = false;
    }

    public boolean isUp() {
        return up;
    }

    public int generation() {
        return generation;
    }

    public SwitchControl control() {
        if (!up) {
            throw new IllegalStateException("the switch is down");
        }
        return control;
    }
}
