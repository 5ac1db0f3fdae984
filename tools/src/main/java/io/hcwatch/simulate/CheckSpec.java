package io.hcwatch.simulate;

import io.hcwatch.avro.v1.CheckConfig;

/** A target group's health check as the load balancer applies it (ALB's names and units). */
record CheckSpec(String path, int intervalMs, int timeoutMs, int healthyThreshold, int unhealthyThreshold) {

    CheckSpec withTimeout(int ms) {
        return new CheckSpec(path, intervalMs, ms, healthyThreshold, unhealthyThreshold);
    }

    CheckConfig toAvro() {
        return new CheckConfig(path, intervalMs, timeoutMs, healthyThreshold, unhealthyThreshold);
    }
}
