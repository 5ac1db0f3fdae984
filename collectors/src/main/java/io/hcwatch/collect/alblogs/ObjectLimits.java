package io.hcwatch.collect.alblogs;

import io.hcwatch.collect.ConfigReader;

/**
 * How much of one log object the collector takes on: its size as S3 holds it, its size once
 * decompressed, the length of one line, and how often an object the collector cannot finish for a
 * reason of its own (a record Kafka refuses, an internal error) is tried before it is dead-lettered.
 * An object is streamed whatever its size; these bound the time and Kafka traffic one object costs
 * and the memory one line holds.
 */
record ObjectLimits(long maxObjectBytes, long maxDecompressedBytes, int maxLineBytes, int maxAttempts) {

    static final String OBJECT_KEY = "alb-logs.max-object-mib";
    static final String DECOMPRESSED_KEY = "alb-logs.max-decompressed-mib";
    static final String LINE_KEY = "alb-logs.max-line-bytes";
    static final String ATTEMPTS_KEY = "alb-logs.max-attempts";

    static ObjectLimits read(ConfigReader in) {
        // ALB writes an object per node every 5 minutes, tens of MB compressed for a busy load balancer, about 10 x that as text
        long object = in.integer(OBJECT_KEY, 1_024, 1, 51_200);
        long decompressed = in.integer(DECOMPRESSED_KEY, 16_384, 1, 1_048_576);
        // ALB takes request lines and headers of up to 16 KB each, so a real line stays well under this; a line must
        // also fit the producer's max.request.size (1 MB by default)
        int line = in.integer(LINE_KEY, 131_072, 1_024, 1_000_000);
        int attempts = in.integer(ATTEMPTS_KEY, 5, 1, 100);
        return new ObjectLimits(object << 20, decompressed << 20, line, attempts);
    }
}
