package dev.innet.tracecheck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places the hot reports nobody observes (FarReach's servers do not trace them) into a converted run, one
 * before each admission, as "hot" events the trace spec takes as {@code ServerReportHot}.
 *
 * <p>Why a fixed place: leaving the report as a free unobserved step let TLC send the reports of all keys
 * whose next admission installs their current record in every order and subset; with the campaign's 48
 * keys, almost all at the initial record, that is 2^48 states before the first admission.
 *
 * <p>Where: a report carries the record the server holds when it sends it, and the spec sends one only
 * for a key that is not in the cache. So it fits, for an admission of record r of key k, right after the
 * later of (a) the server event from which the server held r (the run's start for the initial record) and
 * (b) the last eviction of k that finished before. A real report was sent at some moment after both and no
 * later than the admission while the server held r; the spec's state differs between that moment and this
 * place only in the hot message itself, so the run is admitted with the report here iff it is with the
 * report there. A record held since before the last recovery, reported at the recovery's fence (a seq no
 * server event shows: FarReach.tla's Fenced), counts as held from the recovery on. An admission of a record
 * the server never held gets its report just before it, where the trace spec's record check rejects it.
 */
final class HotReportPlacement {
    private HotReportPlacement() {}

    private record Rec(Object v, Object s) {}

    private static List<?> recordsOf(Object set) {
        return set instanceof FarReachTraceConverter.TlaSet s ? s.records() : (List<?>) set;
    }

    /** The events with a "hot" event inserted before each admitInstall (resolved events: values are ids). */
    static List<Map<String, Object>> place(List<Map<String, Object>> events) {
        Map<String, Rec> stored = new HashMap<>();
        Map<String, Map<Rec, Integer>> heldSince = new HashMap<>();
        Map<String, Integer> uncachedAt = new HashMap<>();
        java.util.Set<String> installedNotValid = new java.util.HashSet<>();
        Map<Integer, List<Map<String, Object>>> after = new HashMap<>();
        Rec initial = new Rec(0L, 0L);
        int lastCrash = -1;
        int lastRecover = -1;
        Map<String, Rec> storedAtCrash = Map.of();
        Map<String, Rec> storedAtRecover = Map.of();
        for (int i = 0; i < events.size(); i++) {
            Map<String, Object> e = events.get(i);
            String k = (String) e.get("k");
            switch ((String) e.get("e")) {
                case "serverPut", "serverGet", "serverEvict" -> {
                    Rec now = new Rec(e.get("sv"), e.get("ss"));
                    if (!now.equals(stored.getOrDefault(k, initial))) {
                        stored.put(k, now);
                        heldSince.computeIfAbsent(k, x -> new HashMap<>()).put(now, i);
                    }
                }
                case "evictFinish" -> uncachedAt.put(k, i);
                case "admitValidate" -> installedNotValid.remove(k);
                case "ctlRestart" -> {
                    // the restarted controller removes admissions that never became valid (CtlRestart)
                    for (String removed : installedNotValid) {
                        uncachedAt.put(removed, i);
                    }
                    installedNotValid.clear();
                }
                case "crash" -> {
                    lastCrash = i;
                    storedAtCrash = new HashMap<>(stored);
                }
                case "recover" -> {
                    lastRecover = i;
                    for (Object o : (Iterable<?>) recordsOf(e.get("stores"))) {
                        Map<?, ?> r = (Map<?, ?>) o;
                        Rec now = new Rec(r.get("sv"), r.get("ss"));
                        String key = (String) r.get("k");
                        if (!now.equals(stored.getOrDefault(key, initial))) {
                            stored.put(key, now);
                            heldSince.computeIfAbsent(key, x -> new HashMap<>()).put(now, i);
                        }
                    }
                    storedAtRecover = new HashMap<>(stored);
                }
                case "admitInstall" -> {
                    installedNotValid.add(k);
                    Rec r = new Rec(e.get("v"), e.get("s"));
                    Integer since = r.equals(initial) ? Integer.valueOf(-1)
                            : heldSince.getOrDefault(k, Map.of()).get(r);
                    Rec atRecover = storedAtRecover.getOrDefault(k, initial);
                    if (since == null && lastRecover >= 0 && atRecover.v().equals(r.v())
                            && ((Long) r.s()) > ((Long) atRecover.s())) {
                        // Recovery fenced the servers: from its step on, a server reports a record it held
                        // since before it at the fence (FarReach.tla's Fenced), a seq no server event shows
                        since = lastRecover;
                    }
                    int place = since == null ? i - 1 : Math.max(since, uncachedAt.getOrDefault(k, -1));
                    // After a crash, a report fits best right after it (the crash emptied the cache, which may
                    // have held the key up to it; the implementation's server also reports cached keys, and the
                    // controller queues reports) if the server held r at the crash; otherwise the report was
                    // sent before the record changed, and the trace spec's crash keeps reports in flight.
                    if (since != null && lastCrash > place && r.equals(storedAtCrash.getOrDefault(k, initial))) {
                        place = lastCrash;
                    }
                    Map<String, Object> hot = new LinkedHashMap<>();
                    hot.put("e", "hot");
                    hot.put("src", e.get("src"));
                    hot.put("k", k);
                    hot.put("v", r.v());
                    hot.put("s", r.s());
                    after.computeIfAbsent(place, x -> new ArrayList<>()).add(hot);
                }
                default -> { }
            }
        }
        List<Map<String, Object>> out = new ArrayList<>(events.size() + after.size());
        out.addAll(after.getOrDefault(-1, List.of()));
        for (int i = 0; i < events.size(); i++) {
            out.add(events.get(i));
            out.addAll(after.getOrDefault(i, List.of()));
        }
        return out;
    }
}
