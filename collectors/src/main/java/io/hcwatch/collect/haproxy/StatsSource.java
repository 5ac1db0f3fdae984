package io.hcwatch.collect.haproxy;

/** Where one host's stats are read from: its runtime API, or its HTTP stats page. */
interface StatsSource {

    /** One complete, parsed reading; anything less is a {@link PollException}. */
    Snapshot read() throws PollException;

    /**
     * The sessions of {@code frontends} by client ({@code show sess}), or null where this source
     * cannot list sessions (the stats page).
     */
    default SessionSources sessions(java.util.Set<String> frontends) throws PollException {
        return null;
    }

    /** Where it reads, for log lines (never with credentials). */
    String describe();
}
