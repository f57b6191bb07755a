package dev.innet.costmodel;

import java.util.List;

/**
 * Stations and the operation classes that visit them (an open network: operations arrive from outside,
 * visit their route in order and leave). Probabilities must sum to 1.
 */
public record QueueingNetwork(List<Station> stations, List<OperationClass> classes) {
    public QueueingNetwork {
        stations = List.copyOf(stations);
        classes = List.copyOf(classes);
        if (stations.isEmpty() || classes.isEmpty()) {
            throw new IllegalArgumentException("a network needs stations and operation classes");
        }
        double sum = 0;
        for (OperationClass c : classes) {
            sum += c.probability();
            for (Visit v : c.route()) {
                if (v.station() >= stations.size()) {
                    throw new IllegalArgumentException("class " + c.name() + " visits unknown station " + v.station());
                }
            }
        }
        if (Math.abs(sum - 1) > 1e-6) {
            throw new IllegalArgumentException("operation class probabilities sum to " + sum + ", not 1");
        }
    }

    /**
     * Seconds of one server's work at each station per operation (the service demand D_k = visits x time,
     * divided over the station's servers); 0 for delay stations, which never saturate.
     */
    public double[] demandPerOperation() {
        double[] d = new double[stations.size()];
        for (OperationClass c : classes) {
            for (Visit v : c.route()) {
                d[v.station()] += c.probability() * v.seconds();
            }
        }
        for (int k = 0; k < d.length; k++) {
            Station s = stations.get(k);
            d[k] = s.isDelay() ? 0 : d[k] / s.servers();
        }
        return d;
    }

    /** The share of arrivals that are operations clients wait for (1 without background classes). */
    public double foregroundShare() {
        return classes.stream().filter(c -> !c.background()).mapToDouble(OperationClass::probability).sum();
    }

    /** Mean time an operation spends in service (no waiting): the latency at zero load. */
    public double meanServiceSeconds() {
        double t = 0;
        for (OperationClass c : classes) {
            for (Visit v : c.route()) {
                t += c.probability() * v.seconds();
            }
        }
        return t;
    }
}
