package io.hcwatch.topology;

import io.hcwatch.metrics.PipelineMetrics;

/**
 * What every ingest of an instance shares.
 *
 * @param inputLag     the input partitions' lag, for telling a quiet partition from one not yet read
 * @param haproxyHosts the collector's HAProxy hosts (see {@link HaproxyHosts})
 * @param sourceLags   how late records arrive, live only (null: not watched, as in replay)
 */
public record IngestServices(PipelineMetrics metrics, InputLag inputLag, HaproxyHosts haproxyHosts, SourceLags sourceLags) {
}
