package io.hcwatch.parse;

/**
 * Whose health check a rejected record was, when that much could still be read: the record says
 * nothing about the target's health, but it says the target exists, so it is unknown rather than
 * absent (and unknown is not unhealthy).
 *
 * @param time the check's event time, or -1 when that was what could not be read
 */
public record TargetIdentity(String targetGroup, String target, long time) {
}
