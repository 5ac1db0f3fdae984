package io.hcwatch.cli;

/** A problem with what the user asked for (a file that cannot be read, a bad setting): exit 2, one line. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
