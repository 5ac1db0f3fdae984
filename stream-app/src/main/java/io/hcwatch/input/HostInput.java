package io.hcwatch.input;

/** What the host monitor (keyed by HAProxy host) takes in, one record at a time. */
public sealed interface HostInput permits FrontendSummary, LoadBalancerConfig, Poll {

    /** Event time (epoch ms): the record's own. */
    long eventTime();

    <R> R accept(Cases<R> cases);

    interface Cases<R> {
        R frontendSummary(FrontendSummary summary);

        R config(LoadBalancerConfig config);

        R poll(Poll poll);
    }
}
