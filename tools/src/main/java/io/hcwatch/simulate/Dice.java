package io.hcwatch.simulate;

import java.util.SplittableRandom;

/** Seeded randomness with the distributions the models need; one instance per concern, split from the seed. */
final class Dice {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final SplittableRandom random;

    Dice(long seed) {
        this(new SplittableRandom(seed));
    }

    private Dice(SplittableRandom random) {
        this.random = random;
    }

    /** An independent stream: what one model draws does not shift what another draws. */
    Dice split() {
        return new Dice(random.split());
    }

    double uniform() {
        return random.nextDouble();
    }

    double uniform(double from, double to) {
        return from + (to - from) * random.nextDouble();
    }

    long uniform(long from, long toExclusive) {
        return from + random.nextLong(toExclusive - from);
    }

    int index(int size) {
        return random.nextInt(size);
    }

    boolean chance(double p) {
        return p > 0 && random.nextDouble() < p;
    }

    double gaussian() {
        return random.nextGaussian();
    }

    /** exp(sigma * z): a lognormal factor with median 1. */
    double lognormal(double sigma) {
        return Math.exp(sigma * random.nextGaussian());
    }

    double exponential(double mean) {
        return -mean * Math.log(1 - random.nextDouble());
    }

    /** A Poisson count (normal approximation above 40). */
    int poisson(double mean) {
        if (mean <= 0) {
            return 0;
        }
        if (mean > 40) {
            return (int) Math.max(0, Math.round(mean + Math.sqrt(mean) * random.nextGaussian()));
        }
        double limit = Math.exp(-mean);
        double p = random.nextDouble();
        int k = 0;
        while (p > limit) {
            p *= random.nextDouble();
            k++;
        }
        return k;
    }

    String hex(int digits) {
        char[] out = new char[digits];
        for (int i = 0; i < digits; i++) {
            out[i] = HEX[random.nextInt(16)];
        }
        return new String(out);
    }

    String uuid() {
        return hex(8) + "-" + hex(4) + "-4" + hex(3) + "-" + HEX[8 + random.nextInt(4)] + hex(3) + "-" + hex(12);
    }
}
