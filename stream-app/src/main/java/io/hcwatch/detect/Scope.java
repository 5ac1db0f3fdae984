package io.hcwatch.detect;

/** What an alert is about; absent parts are null. */
public record Scope(String lb, String targetGroup, String zone, String host, String frontend, String client, String target) {

    public Scope(String lb, String targetGroup, String zone, String host, String frontend, String client) {
        this(lb, targetGroup, zone, host, frontend, client, null);
    }

    public static Scope targetGroup(String lb, String targetGroup) {
        return new Scope(lb, targetGroup, null, null, null, null);
    }

    public Scope withZone(String zone) {
        return new Scope(lb, targetGroup, zone, host, frontend, client, target);
    }

    public Scope withTarget(String target) {
        return new Scope(lb, targetGroup, zone, host, frontend, client, target);
    }

    public static Scope frontend(String host, String frontend) {
        return new Scope(null, null, null, host, frontend, null);
    }
}
