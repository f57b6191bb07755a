/*
 * innet P4 data planes: cache lookup, shared by netcache.p4 and farreach.p4.
 *
 * FarReach §4.2: "a match-action table for cache lookup, which matches the key
 * (currently of size 16 bytes) in the packet header to obtain the record
 * location". The control plane installs one entry per cached key; the entry
 * alone does not make a hit: each program's record control also checks the
 * record's validity (FarReach §3.2 "Atomic validity control").
 */
#ifndef INNET_CACHE_LOOKUP_P4
#define INNET_CACHE_LOOKUP_P4

control CacheLookup(in headers_t hdr, inout local_metadata_t meta) {

    action set_cache_index(cache_idx_t index) {
        meta.cache_lookup_hit = true;
        meta.cache_idx = index;
    }

    action mark_cache_miss() {
        meta.cache_lookup_hit = false;
        meta.cache_idx = 0;
    }

    table cache_lookup {
        key = {
            hdr.innet.key: exact;
        }
        actions = {
            set_cache_index;
            mark_cache_miss;
        }
        default_action = mark_cache_miss();
        size = CACHE_LOOKUP_TABLE_SIZE;
    }

    apply {
        cache_lookup.apply();
    }
}

#endif /* INNET_CACHE_LOOKUP_P4 */
