package io.hcwatch.detect;

/** What an alert is about; absent parts are null. */
public record Scope(String lb, String targetGroup, String zone, String host, String frontend, String client) {

    public static Scope targetGroup(String lb, String targetGroup) {
        return new Scope(lb, targetGroup, null, null, null, null);
    }

    public Scope withZone(String zone) {
        return new Scope(lb, targetGroup, zone, host, frontend, client);
    }

    public static Scope frontend(String host, String frontend) {
        return new Scope(null, null, null, host, frontend, null);
    }
}
