package io.hcwatch.input;

import java.util.List;

/** A record for a monitor's keys, one of every kind the monitors take in. */
public sealed interface Telemetry extends Payload
        permits Pending, CheckBatch, BackendNotice, LoadBalancerConfig, UnreadableCheck, Poll, FeedHeartbeat {

    @Override
    default <R> R accept(Payload.Cases<R> cases) {
        return cases.telemetry(this);
    }

    <R> R accept(Cases<R> cases);

    /** The records a key takes in, in order: a batch's checks one by one, else this record. */
    default List<? extends Telemetry> parts() {
        return List.of(this);
    }

    /** One method per kind of telemetry. */
    interface Cases<R> {
        R check(Check check);

        R checkBatch(CheckBatch batch);

        R backendNotice(BackendNotice notice);

        R config(LoadBalancerConfig config);

        R targetSummary(TargetSummary summary);

        R frontendSummary(FrontendSummary summary);

        R clientSummary(ClientSummary summary);

        R unreadableCheck(UnreadableCheck check);

        R poll(Poll poll);

        R feedHeartbeat(FeedHeartbeat heartbeat);
    }
}
