package io.hcwatch.detect.slots;

/**
 * How full one frontend's connection slots have been over the sustain window. When the HAProxy
 * collector's polls (haproxy-stats) cover the window they decide: full means scur at or above the
 * warning share of the limit (the polled slim, else a known maxconn) in every poll, which holds
 * as soon as the frontend fills, before any request held in it has ended and been logged.
 * Otherwise the log lines decide. With a known maxconn (LbConfig), full means feconn at or above
 * the warning share of it in every second with traffic. Without one, hcwatch does not assume a number: a
 * frontend is full when its feconn stays flat at its peak for the whole window while requests
 * wait (Tw > 0, queue or tarpit terminations), which is what a frontend at its limit logs; its
 * peak is then taken for its maxconn.
 *
 * @param peak     highest feconn logged in the window
 * @param maxconn  the known limit, or the peak when inferred
 * @param inferred whether maxconn was inferred from a flat peak
 * @param full     whether the frontend counts as full (at the warning ratio or beyond) for the whole window
 * @param polled   whether the collector's polls decided (else the log lines)
 */
record FrontendFill(int peak, int maxconn, boolean inferred, boolean full, boolean polled) {

    private static final FrontendFill NOTHING = new FrontendFill(0, 1, true, false, false);

    static FrontendFill of(FrontendSeconds f, PolledSeconds polls, Integer configured, SlotSettings settings, long now) {
        long sustain = settings.sustainMillis();
        if (polls != null) {
            FrontendWindow w = polls.window(now, sustain);
            int limit = polls.limitAt(now);
            if (limit <= 0 && configured != null) {
                limit = configured;
            }
            if (w.covers(sustain) && limit > 0) {
                return new FrontendFill(w.peak(), limit, false, w.sustainedAtLeast(settings.warningRatio() * limit, sustain), true);
            }
        }
        if (f == null) {
            return NOTHING;
        }
        FrontendWindow fe = FrontendWindow.of(f, now, sustain, f.maxFeconn);
        if (configured != null && configured > 0) {
            return new FrontendFill(fe.peak(), configured, false, fe.sustainedAtLeast(settings.warningRatio() * configured, sustain),
                    false);
        }
        boolean flat = fe.covers(sustain) && fe.peak() >= settings.inferredMinSessions()
                && fe.peak() - fe.min() <= Math.max(1, fe.peak() / 50);
        long waited = 0;
        for (int i = 0; i < f.second.length; i++) {
            if (f.within(i, now, sustain)) {
                waited += f.waited[i];
            }
        }
        return new FrontendFill(fe.peak(), Math.max(1, fe.peak()), true, flat && waited > 0, false);
    }

    double ratio() {
        return (double) peak / maxconn;
    }
}
