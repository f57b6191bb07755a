/*
 * innet P4 data planes: the cached values, shared by netcache.p4 and farreach.p4.
 *
 * A value of up to 128 bytes is 16 words of 8 bytes; word i of the record at
 * cache index x is value_word_<ii>[x] (ii = 00..15). How many words are
 * meaningful is the program's record_vallen[x]; words past it are stale and
 * never read into a packet. FarReach §4.2 keeps values in "the remaining 8
 * (out of 12) stages ... 32 register arrays of 4-byte registers"; see
 * docs/tna-mapping.md for how the 16 bit<64> arrays map back to that.
 *
 * The record control decides; this control only executes its commands, in
 * this order (each is a flag in local_metadata_t):
 *   1. value_save_original:     registers -> meta.original_word_* (snapshot, §3.4)
 *   2. value_store_from_packet: hdr.value_words -> registers (the valid words)
 *   3. value_load_to_packet:    registers -> hdr.value_words[0 .. value_words_to_load-1],
 *                               the other words invalid
 *   4. value_strip_packet:      all hdr.value_words invalid (a reply without value)
 * Save-before-store is what lets a write hit report the record as it was
 * before the write (FarReach §3.4, Figure 6).
 */
#ifndef INNET_VALUE_STORE_P4
#define INNET_VALUE_STORE_P4

control ValueStore(inout headers_t hdr, inout local_metadata_t meta) {

    register<value_word_t>(CACHE_CAPACITY) value_word_00;
    register<value_word_t>(CACHE_CAPACITY) value_word_01;
    register<value_word_t>(CACHE_CAPACITY) value_word_02;
    register<value_word_t>(CACHE_CAPACITY) value_word_03;
    register<value_word_t>(CACHE_CAPACITY) value_word_04;
    register<value_word_t>(CACHE_CAPACITY) value_word_05;
    register<value_word_t>(CACHE_CAPACITY) value_word_06;
    register<value_word_t>(CACHE_CAPACITY) value_word_07;
    register<value_word_t>(CACHE_CAPACITY) value_word_08;
    register<value_word_t>(CACHE_CAPACITY) value_word_09;
    register<value_word_t>(CACHE_CAPACITY) value_word_10;
    register<value_word_t>(CACHE_CAPACITY) value_word_11;
    register<value_word_t>(CACHE_CAPACITY) value_word_12;
    register<value_word_t>(CACHE_CAPACITY) value_word_13;
    register<value_word_t>(CACHE_CAPACITY) value_word_14;
    register<value_word_t>(CACHE_CAPACITY) value_word_15;

    apply {
        bit<32> index = (bit<32>) meta.cache_idx;

        if (meta.value_save_original) {
            value_word_00.read(meta.original_word_00, index);
            value_word_01.read(meta.original_word_01, index);
            value_word_02.read(meta.original_word_02, index);
            value_word_03.read(meta.original_word_03, index);
            value_word_04.read(meta.original_word_04, index);
            value_word_05.read(meta.original_word_05, index);
            value_word_06.read(meta.original_word_06, index);
            value_word_07.read(meta.original_word_07, index);
            value_word_08.read(meta.original_word_08, index);
            value_word_09.read(meta.original_word_09, index);
            value_word_10.read(meta.original_word_10, index);
            value_word_11.read(meta.original_word_11, index);
            value_word_12.read(meta.original_word_12, index);
            value_word_13.read(meta.original_word_13, index);
            value_word_14.read(meta.original_word_14, index);
            value_word_15.read(meta.original_word_15, index);
        }

        if (meta.value_store_from_packet) {
            /* The parser extracted exactly ceil(vallen / 8) words. */
            if (hdr.value_words[0].isValid()) { value_word_00.write(index, hdr.value_words[0].word); }
            if (hdr.value_words[1].isValid()) { value_word_01.write(index, hdr.value_words[1].word); }
            if (hdr.value_words[2].isValid()) { value_word_02.write(index, hdr.value_words[2].word); }
            if (hdr.value_words[3].isValid()) { value_word_03.write(index, hdr.value_words[3].word); }
            if (hdr.value_words[4].isValid()) { value_word_04.write(index, hdr.value_words[4].word); }
            if (hdr.value_words[5].isValid()) { value_word_05.write(index, hdr.value_words[5].word); }
            if (hdr.value_words[6].isValid()) { value_word_06.write(index, hdr.value_words[6].word); }
            if (hdr.value_words[7].isValid()) { value_word_07.write(index, hdr.value_words[7].word); }
            if (hdr.value_words[8].isValid()) { value_word_08.write(index, hdr.value_words[8].word); }
            if (hdr.value_words[9].isValid()) { value_word_09.write(index, hdr.value_words[9].word); }
            if (hdr.value_words[10].isValid()) { value_word_10.write(index, hdr.value_words[10].word); }
            if (hdr.value_words[11].isValid()) { value_word_11.write(index, hdr.value_words[11].word); }
            if (hdr.value_words[12].isValid()) { value_word_12.write(index, hdr.value_words[12].word); }
            if (hdr.value_words[13].isValid()) { value_word_13.write(index, hdr.value_words[13].word); }
            if (hdr.value_words[14].isValid()) { value_word_14.write(index, hdr.value_words[14].word); }
            if (hdr.value_words[15].isValid()) { value_word_15.write(index, hdr.value_words[15].word); }
        }

        if (meta.value_load_to_packet) {
            if (meta.value_words_to_load > 0) {
                hdr.value_words[0].setValid();
                value_word_00.read(hdr.value_words[0].word, index);
            } else {
                hdr.value_words[0].setInvalid();
            }
            if (meta.value_words_to_load > 1) {
                hdr.value_words[1].setValid();
                value_word_01.read(hdr.value_words[1].word, index);
            } else {
                hdr.value_words[1].setInvalid();
            }
            if (meta.value_words_to_load > 2) {
                hdr.value_words[2].setValid();
                value_word_02.read(hdr.value_words[2].word, index);
            } else {
                hdr.value_words[2].setInvalid();
            }
            if (meta.value_words_to_load > 3) {
                hdr.value_words[3].setValid();
                value_word_03.read(hdr.value_words[3].word, index);
            } else {
                hdr.value_words[3].setInvalid();
            }
            if (meta.value_words_to_load > 4) {
                hdr.value_words[4].setValid();
                value_word_04.read(hdr.value_words[4].word, index);
            } else {
                hdr.value_words[4].setInvalid();
            }
            if (meta.value_words_to_load > 5) {
                hdr.value_words[5].setValid();
                value_word_05.read(hdr.value_words[5].word, index);
            } else {
                hdr.value_words[5].setInvalid();
            }
            if (meta.value_words_to_load > 6) {
                hdr.value_words[6].setValid();
                value_word_06.read(hdr.value_words[6].word, index);
            } else {
                hdr.value_words[6].setInvalid();
            }
            if (meta.value_words_to_load > 7) {
                hdr.value_words[7].setValid();
                value_word_07.read(hdr.value_words[7].word, index);
            } else {
                hdr.value_words[7].setInvalid();
            }
            if (meta.value_words_to_load > 8) {
                hdr.value_words[8].setValid();
                value_word_08.read(hdr.value_words[8].word, index);
            } else {
                hdr.value_words[8].setInvalid();
            }
            if (meta.value_words_to_load > 9) {
                hdr.value_words[9].setValid();
                value_word_09.read(hdr.value_words[9].word, index);
            } else {
                hdr.value_words[9].setInvalid();
            }
            if (meta.value_words_to_load > 10) {
                hdr.value_words[10].setValid();
                value_word_10.read(hdr.value_words[10].word, index);
            } else {
                hdr.value_words[10].setInvalid();
            }
            if (meta.value_words_to_load > 11) {
                hdr.value_words[11].setValid();
                value_word_11.read(hdr.value_words[11].word, index);
            } else {
                hdr.value_words[11].setInvalid();
            }
            if (meta.value_words_to_load > 12) {
                hdr.value_words[12].setValid();
                value_word_12.read(hdr.value_words[12].word, index);
            } else {
                hdr.value_words[12].setInvalid();
            }
            if (meta.value_words_to_load > 13) {
                hdr.value_words[13].setValid();
                value_word_13.read(hdr.value_words[13].word, index);
            } else {
                hdr.value_words[13].setInvalid();
            }
            if (meta.value_words_to_load > 14) {
                hdr.value_words[14].setValid();
                value_word_14.read(hdr.value_words[14].word, index);
            } else {
                hdr.value_words[14].setInvalid();
            }
            if (meta.value_words_to_load > 15) {
                hdr.value_words[15].setValid();
                value_word_15.read(hdr.value_words[15].word, index);
            } else {
                hdr.value_words[15].setInvalid();
            }
        }

        if (meta.value_strip_packet) {
            hdr.value_words[0].setInvalid();
            hdr.value_words[1].setInvalid();
            hdr.value_words[2].setInvalid();
            hdr.value_words[3].setInvalid();
            hdr.value_words[4].setInvalid();
            hdr.value_words[5].setInvalid();
            hdr.value_words[6].setInvalid();
            hdr.value_words[7].setInvalid();
            hdr.value_words[8].setInvalid();
            hdr.value_words[9].setInvalid();
            hdr.value_words[10].setInvalid();
            hdr.value_words[11].setInvalid();
            hdr.value_words[12].setInvalid();
            hdr.value_words[13].setInvalid();
            hdr.value_words[14].setInvalid();
            hdr.value_words[15].setInvalid();
        }
    }
}

#endif /* INNET_VALUE_STORE_P4 */
