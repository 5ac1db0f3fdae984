package io.hcwatch.topology;

import io.hcwatch.parse.ParseResult;
import org.apache.avro.specific.SpecificRecord;

/** Turns one raw input value into a record, a rejection, or a skip; never throws on bad input. */
@FunctionalInterface
public interface Decoder {

    ParseResult<? extends SpecificRecord> decode(byte[] raw);
}
