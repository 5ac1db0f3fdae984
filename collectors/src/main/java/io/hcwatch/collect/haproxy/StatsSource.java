package io.hcwatch.collect.haproxy;

/** Where one host's stats are read from: its runtime API, or its HTTP stats page. */
interface StatsSource {

    /** One complete, parsed reading; anything less is a {@link PollException}. */
    Snapshot read() throws PollException;

    /** Where it reads, for log lines (never with credentials). */
    String describe();
}
