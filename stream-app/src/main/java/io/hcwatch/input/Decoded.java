package io.hcwatch.input;

/** What a decoder makes of one input value that parsed: one record of the kinds hcwatch reads. */
public sealed interface Decoded permits AlbTrafficLine, HaproxyLine, Check, BackendNotice, LoadBalancerConfig, Poll {

    /** The telemetry's own time (epoch ms), never the wall clock. */
    long eventTime();

    <R> R accept(Cases<R> cases);

    /** One method per kind a decoder gives. */
    interface Cases<R> {
        R albLine(AlbTrafficLine line);

        R haproxyLine(HaproxyLine line);

        R check(Check check);

        R backendNotice(BackendNotice notice);

        R config(LoadBalancerConfig config);

        R poll(Poll poll);
    }
}
