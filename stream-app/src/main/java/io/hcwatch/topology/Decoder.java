package io.hcwatch.topology;

import io.hcwatch.parse.ParseResult;

/** Turns one raw input value into a record, a rejection, or a skip; never throws on bad input. */
@FunctionalInterface
public interface Decoder {

    /** @return a record (Avro, or {@link io.hcwatch.parse.AlbTrafficLine} for ALB access logs), a rejection or a skip */
    ParseResult<?> decode(byte[] raw);
}
