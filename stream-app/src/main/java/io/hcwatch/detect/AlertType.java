package io.hcwatch.detect;

import java.util.Locale;

/** The alert types of docs/contract.md ("Alert types"); {@link #id()} is the stable identifier on the wire. */
public enum AlertType {
    CORRELATED_FAILURE,
    ZONAL_FAILURE,
    HEALTH_LATENCY_HEADROOM,
    HEALTH_CHECK_CONFIG_RISK,
    REPLACEMENT_CHURN,
    SOCKET_SLOT_EXHAUSTION,
    CLIENT_FLOOD,
    FAIL_OPEN_ROUTING,
    DNS_FAILOVER,
    NO_HEALTHY_TARGETS,
    GRAY_FAILURE,
    /** hcwatch's own input from one host or load balancer stopped (not a load-balancer condition). */
    TELEMETRY_GAP;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** runbooks/&lt;this&gt;.md */
    public String runbookFile() {
        return id().replace('_', '-') + ".md";
    }

    public static AlertType fromId(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }
}
