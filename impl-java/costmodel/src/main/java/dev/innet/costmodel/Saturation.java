package dev.innet.costmodel;

/**
 * The most operations per second a network sustains (the utilisation law: station k is busy X x D_k of the
 * time, so X <= 1 / max_k D_k) and which station limits it.
 */
public record Saturation(double opsPerSecond, String bottleneck, double[] demandPerOperation) {
    public static Saturation of(QueueingNetwork net) {
        double[] d = net.demandPerOperation();
        int worst = 0;
        for (int k = 1; k < d.length; k++) {
            if (d[k] > d[worst]) {
                worst = k;
            }
        }
        if (d[worst] <= 0) {
            throw new IllegalArgumentException("no station does any work: the network has no bound");
        }
        return new Saturation(1 / d[worst], net.stations().get(worst).name(), d);
    }

    /** How busy station {@code k} is at {@code opsPerSecond} (1 = saturated). */
    public double utilisation(int k, double opsPerSecond) {
        return opsPerSecond * demandPerOperation[k];
    }
}
