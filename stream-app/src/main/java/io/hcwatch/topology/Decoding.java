package io.hcwatch.topology;

import io.hcwatch.input.Decoded;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.parse.RejectReason;

/** The ingest's first stage: a source's decoder over one raw value, which never throws and never loses a value. */
final class Decoding {

    private final Decoder decoder;

    Decoding(Decoder decoder) {
        this.decoder = decoder;
    }

    /** The decoded record, a rejection or a skip; a null value and a decoder that throws are rejections with their reason. */
    ParseResult<? extends Decoded> decode(byte[] value) {
        if (value == null) {
            return ParseResult.rejected("empty", "the record has no value (null)");
        }
        try {
            return decoder.decode(value);
        } catch (RuntimeException e) {
            return ParseResult.rejected(RejectReason.INTERNAL_ERROR, "decoder failed: " + e);
        }
    }
}
