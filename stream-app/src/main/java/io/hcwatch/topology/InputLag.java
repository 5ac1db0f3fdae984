package io.hcwatch.topology;

/**
 * How far the app's consumer is behind the end of an input partition, when it knows: an ingest
 * that reads nothing from a partition that is caught up has gone quiet, one that still lags is
 * only waiting for its next fetch, and must not be taken for idle however long that takes.
 */
@FunctionalInterface
public interface InputLag {

    /** Nothing known: replay, tests, or before the consumer's first fetch. */
    InputLag UNKNOWN = (topic, partition) -> -1;

    /** Records between the consumer's position and the partition's end; -1 when not known. */
    long lag(String topic, int partition);
}
