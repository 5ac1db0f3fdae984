package io.hcwatch.topology;

import io.hcwatch.input.Decoded;
import io.hcwatch.parse.ParseResult;

/** Turns one raw input value into a record, a rejection, or a skip; never throws on bad input. */
@FunctionalInterface
public interface Decoder {

    /** @return a record of one of the kinds hcwatch reads, a rejection or a skip */
    ParseResult<? extends Decoded> decode(byte[] raw);
}
