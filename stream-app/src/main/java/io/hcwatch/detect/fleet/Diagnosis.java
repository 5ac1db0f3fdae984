package io.hcwatch.detect.fleet;

import java.util.Map;

/** Why a fleet is failing, with the evidence for the choice. */
public record Diagnosis(Kind kind, String reason, Map<String, String> evidence) {

    /** The diagnoses of docs/contract.md ("Diagnoses"; ids are stable). */
    public enum Kind {
        SHARED_DEPENDENCY_DEEP_CHECK, TIMEOUT_BELOW_LATENCY, OVERLOAD_CASCADE, ZONAL, UNKNOWN;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
