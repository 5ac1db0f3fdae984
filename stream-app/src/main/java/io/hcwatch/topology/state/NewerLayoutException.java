package io.hcwatch.topology.state;

/**
 * A stored value this release refuses to read because a newer release wrote it: a layout version
 * past the one it knows, or a field it does not know. Its own type, so that the store can leave
 * that one key unread and the processors can count it as a newer release's (reason
 * {@code newer_version}) rather than as their own failure: after a rollback, or beside newer
 * instances during a rolling upgrade, it is expected and says nothing about this release's code.
 */
public final class NewerLayoutException extends RuntimeException {

    public NewerLayoutException(String message) {
        super(message);
    }

    public NewerLayoutException(String message, Throwable cause) {
        super(message, cause);
    }
}
