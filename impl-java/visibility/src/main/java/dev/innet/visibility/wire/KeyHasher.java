package dev.innet.visibility.wire;

import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * How a key maps to its switch entry (index) and fingerprint. Clients compute both and put them in the
 * extension; data nodes check them. Keys of one index share a data node and a timestamp source
 * (§III-B 1, Fig. 3). Tests substitute a hasher that makes keys collide.
 */
public interface KeyHasher {
    VisExt extOf(byte[] key);

    /** CRC-32 of the key for the index (low 16 bits), CRC-32C for the fingerprint. */
    KeyHasher CRC = key -> {
        CRC32 index = new CRC32();
        index.update(key);
        CRC32C fp = new CRC32C();
        fp.update(key);
        return new VisExt((int) (index.getValue() & 0xffff), fp.getValue());
    };

    /**
     * Every key in one of {@code slots} indices with one of {@code fingerprints} fingerprints (the CRC
     * values reduced): many keys share each entry and many share entry and fingerprint, so fallbacks and
     * failed key validations are frequent (tests).
     */
    static KeyHasher colliding(int slots, int fingerprints) {
        return key -> {
            VisExt crc = CRC.extOf(key);
            return new VisExt(crc.index() % slots, crc.fingerprint() % fingerprints);
        };
    }
}
