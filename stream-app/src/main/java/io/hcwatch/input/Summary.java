package io.hcwatch.input;

/** One second of one partition's traffic, summed per target group, per HAProxy frontend or per client scope. */
public sealed interface Summary extends Pending permits TargetSummary, FrontendSummary, ClientSummary {

    <R> R accept(Cases<R> cases);

    interface Cases<R> {
        R targetSummary(TargetSummary summary);

        R frontendSummary(FrontendSummary summary);

        R clientSummary(ClientSummary summary);
    }
}
