package io.hcwatch.topology;

import io.hcwatch.metrics.PipelineMetrics;

/**
 * Counts a monitor's records that reach their key after its clock has moved past them: late, older
 * than the watermark less the grace period, whose time the windows may have dropped already; or
 * behind, within the grace period but older than an evaluation step that has run, which judged
 * without them (a silent target aged out by it), as replay never does. Counted, not refused: the
 * monitor still applies them.
 */
final class LateArrivals {

    private final String monitor;
    private final PipelineMetrics metrics;
    private final long graceMillis;

    LateArrivals(String monitor, PipelineMetrics metrics, long graceMillis) {
        this.monitor = monitor;
        this.metrics = metrics;
        this.graceMillis = graceMillis;
    }

    /**
     * @param times     the event times of the records of one envelope
     * @param late      whether the clock found the envelope late (checking each record against the grace period is needed then only)
     * @param watermark the clock's watermark
     * @param lastStep  the time of the last evaluation step run
     */
    void count(long[] times, boolean late, long watermark, long lastStep) {
        long lateBefore = late ? watermark - graceMillis : Long.MIN_VALUE;
        for (long t : times) {
            if (t < lateBefore) {
                metrics.late(monitor);
            } else if (t < lastStep) {
                metrics.behind(monitor);
            }
        }
    }
}
