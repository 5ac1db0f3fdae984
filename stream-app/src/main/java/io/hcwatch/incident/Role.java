package io.hcwatch.incident;

import java.util.Locale;

/** Where a member alert stands in the failure story (docs/contract.md, "Incidents"). */
public enum Role {
    /** What started it: a config change, a flood's client, a shared dependency, a zone, a stopped feed. */
    CAUSE,
    /** How it spreads: latency against the timeout, correlated failure, full slots, replacement churn. */
    MECHANISM,
    /** What users and the load balancer feel: fail-open, no healthy targets, DNS failover. */
    IMPACT;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
