package io.hcwatch.input;

/** What the fleet monitor (keyed by target group) takes in, one record at a time. */
public sealed interface FleetInput permits Check, BackendNotice, LoadBalancerConfig, TargetSummary, UnreadableCheck {

    /** Event time (epoch ms): the record's own. */
    long eventTime();

    <R> R accept(Cases<R> cases);

    interface Cases<R> {
        R check(Check check);

        R backendNotice(BackendNotice notice);

        R config(LoadBalancerConfig config);

        R targetSummary(TargetSummary summary);

        R unreadableCheck(UnreadableCheck check);
    }
}
