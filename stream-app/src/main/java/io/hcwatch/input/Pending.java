package io.hcwatch.input;

/** What an ingest holds in its pending store until its second is complete: summaries, and health checks in batches. */
public sealed interface Pending extends Telemetry permits Summary, Check {

    <R> R accept(Cases<R> cases);

    interface Cases<R> {
        R targetSummary(TargetSummary summary);

        R frontendSummary(FrontendSummary summary);

        R clientSummary(ClientSummary summary);

        R check(Check check);
    }
}
