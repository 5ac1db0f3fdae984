package io.hcwatch.e2e;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What an end-to-end test started, stopped in the reverse order of starting: the app before the
 * broker it writes to, the broker last. Every step runs even when one before it failed, so one
 * program that will not stop cannot leave the others running into the next test.
 */
final class Teardown implements AutoCloseable {

    /** One thing to stop. */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    private final Deque<Step> steps = new ArrayDeque<>();

    /** Stops {@code resource} at the end, before everything added earlier. */
    <T extends AutoCloseable> T add(T resource) {
        steps.push(resource::close);
        return resource;
    }

    /** Runs {@code step} at the end, before everything added earlier. */
    void onClose(Step step) {
        steps.push(step);
    }

    @Override
    public void close() throws Exception {
        Exception failed = null;
        while (!steps.isEmpty()) {
            try {
                steps.pop().run();
            } catch (Exception e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
