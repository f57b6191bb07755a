/*
 * innet P4 data planes: access-frequency tracking for cache admission and
 * eviction, shared by netcache.p4 and farreach.p4.
 *
 * FarReach §3.2 "Cache admission policy" (after NetCache): a Count-Min Sketch
 * tracks uncached keys, a counter array tracks cached ones, requests are
 * sampled, and "if the frequency exceeds a pre-defined threshold, FarReach
 * identifies the key as hot". The controller resets all counters
 * periodically (register reset through the control plane) to avoid overflow.
 *
 * Reporting: FarReach §3.2 has the *server* send the hot record to the
 * controller (Figure 3(a) step (2)), which lets the server suppress duplicate
 * reports and removes NetCache's in-switch Bloom filter. The switch marks the
 * forwarded request with flags bit FLAG_HOT; the server does the rest.
 *
 * Only client requests (GET, PUT, DEL) are counted, once each, at the switch
 * that sees them first: replies and switch-rewritten ops are not accesses.
 */
#ifndef INNET_FREQUENCY_P4
#define INNET_FREQUENCY_P4

/* Count-Min rows: CRC-32 of (16 key bytes ++ 4-byte salt), mod CMS_WIDTH.
 * Distinct salts make the four rows independent hash functions; none is the
 * unsalted key hash used for sequence-number slots. */
const bit<32> CMS_SALT_0 = 0x00000000;
const bit<32> CMS_SALT_1 = 0x9e3779b9;
const bit<32> CMS_SALT_2 = 0x7f4a7c15;
const bit<32> CMS_SALT_3 = 0x5bd1e995;

control FrequencyMonitor(inout headers_t hdr, inout local_metadata_t meta) {

    /* Count-Min Sketch over sampled requests to uncached keys (§3.2, §4.2) */
    register<frequency_t>(CMS_WIDTH) cms_row_0;
    register<frequency_t>(CMS_WIDTH) cms_row_1;
    register<frequency_t>(CMS_WIDTH) cms_row_2;
    register<frequency_t>(CMS_WIDTH) cms_row_3;

    /* cached_frequency[cache index] = sampled requests to that cached key;
     * the controller samples it to pick an eviction victim (§3.3). */
    register<frequency_t>(CACHE_CAPACITY) cached_frequency;

    /* Sampling: a request is counted iff (random byte & sample_mask[0]) == 0.
     * 0 counts every request (the default: deterministic for tests);
     * 1 is the paper's rate 0.5 (§5.1); 3 is 0.25; 0xff is 1/256. */
    register<bit<8>>(1) sample_mask;

    /* Hot threshold for the CMS estimate; 0 means DEFAULT_HOT_THRESHOLD (20, §5.1). */
    register<frequency_t>(1) hot_threshold;

    apply {
        if (meta.is_client_request) {
            bit<8> mask;
            sample_mask.read(mask, 0);
            bit<8> draw = 0;
            if (mask != 0) {
                random(draw, (bit<8>) 0, (bit<8>) 255);
            }
            if ((draw & mask) == 0) {
                if (meta.cached) {
                    bit<32> index = (bit<32>) meta.cache_idx;
                    frequency_t count;
                    cached_frequency.read(count, index);
                    cached_frequency.write(index, count + 1);
                } else {
                    bit<32> i0;
                    bit<32> i1;
                    bit<32> i2;
                    bit<32> i3;
                    hash(i0, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_0 }, CMS_WIDTH);
                    hash(i1, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_1 }, CMS_WIDTH);
                    hash(i2, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_2 }, CMS_WIDTH);
                    hash(i3, HashAlgorithm.crc32, (bit<32>) 0, { hdr.innet.key, CMS_SALT_3 }, CMS_WIDTH);

                    frequency_t c0;
                    frequency_t c1;
                    frequency_t c2;
                    frequency_t c3;
                    cms_row_0.read(c0, i0);
                    cms_row_1.read(c1, i1);
                    cms_row_2.read(c2, i2);
                    cms_row_3.read(c3, i3);
                    c0 = c0 + 1;
                    c1 = c1 + 1;
                    c2 = c2 + 1;
                    c3 = c3 + 1;
                    cms_row_0.write(i0, c0);
                    cms_row_1.write(i1, c1);
                    cms_row_2.write(i2, c2);
                    cms_row_3.write(i3, c3);

                    /* Count-Min estimate: the smallest of the row counters */
                    frequency_t estimate = c0;
                    if (c1 < estimate) { estimate = c1; }
                    if (c2 < estimate) { estimate = c2; }
                    if (c3 < estimate) { estimate = c3; }

                    frequency_t threshold;
                    hot_threshold.read(threshold, 0);
                    if (threshold == 0) {
                        threshold = DEFAULT_HOT_THRESHOLD;
                    }
                    if (estimate >= threshold) {
                        hdr.innet.flags = hdr.innet.flags | FLAG_HOT;
                    }
                }
            }
        }
    }
}

#endif /* INNET_FREQUENCY_P4 */
