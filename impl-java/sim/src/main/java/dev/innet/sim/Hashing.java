package dev.innet.sim;

import java.nio.charset.StandardCharsets;

/**
 * The project's fixed, specified hash functions, in one place so that every component that must agree
 * on a hash (the key partitioning of servers and clients, the scrambling of workload keys, the naming
 * of random sub-streams) computes the same one. FNV-1a (64-bit) for bytes, and splitmix64's finaliser
 * to spread nearby inputs over all 64 bits. None of them is cryptographic.
 */
public final class Hashing {
    private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private Hashing() {}

    /** FNV-1a, 64-bit, over {@code bytes}. */
    public static long fnv1a64(byte[] bytes) {
        long h = FNV_OFFSET_BASIS;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }

    /** FNV-1a, 64-bit, over the string's UTF-8 bytes. */
    public static long fnv1a64(String s) {
        return fnv1a64(s.getBytes(StandardCharsets.UTF_8));
    }

    /** FNV-1a, 64-bit, over the eight bytes of {@code v}, least significant first. */
    public static long fnv1a64(long v) {
        long h = FNV_OFFSET_BASIS;
        for (int i = 0; i < 8; i++) {
            h ^= (v >>> (8 * i)) & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }

    /** splitmix64's output function: a bijective 64-bit mix. */
    public static long splitMix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
