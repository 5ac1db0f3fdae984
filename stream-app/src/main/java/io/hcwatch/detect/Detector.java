package io.hcwatch.detect;

import java.util.List;

/**
 * One rule over one monitored key's state (a target group, an HAProxy host, a client scope),
 * judged at event time {@code now}: what holds, as findings. Plain and deterministic, with no
 * side effects: the same state and time give the same findings. What must hold for a while
 * before it fires says so on the finding ({@link Finding#holdForMillis()}); the alert
 * lifecycle, not the detector, keeps that time.
 */
@FunctionalInterface
public interface Detector<S> {

    List<Finding> judge(S state, long now);
}
