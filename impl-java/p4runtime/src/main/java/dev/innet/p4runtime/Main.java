package dev.innet.p4runtime;

/**
 * p4sim's command with P4Runtime: every p4sim option, plus {@code --p4info FILE} (write the program's
 * P4Info) and {@code --p4runtime-port N} (serve P4Runtime v1). {@code ./innet p4sim} runs this.
 */
public final class Main {
    private Main() { }

    public static void main(String[] args) {
        System.exit(dev.innet.p4sim.Main.run(args, System.out, System.err, new P4RuntimeOptions(System.out)));
    }
}
