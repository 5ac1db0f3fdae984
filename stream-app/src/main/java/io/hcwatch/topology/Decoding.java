package io.hcwatch.topology;

import io.hcwatch.input.Decoded;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.serde.SchemaRegistryUnavailableException;
import io.hcwatch.parse.RejectReason;

/**
 * The ingest's first stage: a source's decoder over one raw value, which never loses a value and
 * throws only when the Schema Registry it waited for is still down as the app closes.
 */
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
        } catch (SchemaRegistryUnavailableException e) {
            // The value is fine; the registry was still down when the app began to close. Not
            // dead-lettered and not committed: it is read again after the restart.
            throw e;
        } catch (RuntimeException e) {
            return ParseResult.rejected(RejectReason.INTERNAL_ERROR, "decoder failed: " + e);
        }
    }
}
