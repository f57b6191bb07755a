package dev.innet.visibility.fs;

/**
 * How a file-system operation ended.
 *
 * @param outcome    what the client can say
 * @param inode      what a stat found (OK), else null
 * @param fromSwitch the switch answered the stat, or committed the create or write in one round trip
 * @param attempts   how many times a request was sent
 */
public record FsResult(Outcome outcome, Inode inode, boolean fromSwitch, int attempts) {
    public enum Outcome {
        /** created, written, or (stat) found */
        OK,
        /** a create found the path there */
        EXISTS,
        /** a write or stat found no file */
        NOT_FOUND,
        /** an error reply: no effect */
        FAILED,
        /** no reply after all attempts: a create or write may or may not take effect */
        TIMED_OUT
    }
}
