package dev.innet.p4sim.cli;

import dev.innet.switchapi.ControlException;
import java.math.BigInteger;

/** Value syntax of bmv2's runtime CLI: decimal, 0x hex, 0b binary, IPv4 a.b.c.d, MAC aa:bb:cc:dd:ee:ff. */
final class CliValues {
    private CliValues() { }

    static BigInteger parse(String text) {
        String t = text.strip();
        try {
            if (t.matches("\\d+\\.\\d+\\.\\d+\\.\\d+")) {
                BigInteger v = BigInteger.ZERO;
                for (String part : t.split("\\.")) {
                    int b = Integer.parseInt(part);
                    if (b > 255) {
                        throw new ControlException("bad IPv4 address '" + t + "'");
                    }
                    v = v.shiftLeft(8).or(BigInteger.valueOf(b));
                }
                return v;
            }
            if (t.matches("([0-9a-fA-F]{1,2}:){5}[0-9a-fA-F]{1,2}")) {
                return new BigInteger(t.replace(":", ""), 16);
            }
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return new BigInteger(t.substring(2), 16);
            }
            if (t.startsWith("0b") || t.startsWith("0B")) {
                return new BigInteger(t.substring(2), 2);
            }
            return new BigInteger(t);
        } catch (NumberFormatException e) {
            throw new ControlException("bad value '" + t + "'");
        }
    }

    static int parseInt(String text, String what) {
        BigInteger v = parse(text);
        if (v.bitLength() > 31) {
            throw new ControlException(what + " " + text + " out of range");
        }
        return v.intValue();
    }
}
