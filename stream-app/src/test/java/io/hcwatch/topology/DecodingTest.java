package io.hcwatch.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.input.Check;
import io.hcwatch.parse.ParseResult;
import org.junit.jupiter.api.Test;

/** The ingest's decode stage: whatever a value holds and whatever its decoder does, an answer and no exception. */
class DecodingTest {

    @Test
    void aRecordWithNoValueIsRejectedAsEmptyWithoutAskingTheDecoder() {
        Decoding decoding = new Decoding(raw -> {
            throw new AssertionError("the decoder must not see a null value");
        });
        assertThat(decoding.decode(null)).isEqualTo(ParseResult.rejected("empty", "the record has no value (null)"));
    }

    @Test
    void aDecoderThatThrowsGivesARejectionNamingWhatItThrew() {
        Decoding decoding = new Decoding(raw -> {
            throw new IllegalStateException("bug at byte " + raw.length);
        });
        assertThat(decoding.decode(new byte[3])).isEqualTo(ParseResult.rejected("internal_error",
                "decoder failed: java.lang.IllegalStateException: bug at byte 3"));
    }

    @Test
    void whatTheDecoderAnswersIsPassedOnAsItIs() {
        ParseResult<Check> ok = ParseResult.ok(IngestRecords.check("tg", "i-1", IngestRecords.T0));
        ParseResult<Check> skipped = ParseResult.skipped("proxy_lifecycle");
        assertThat(new Decoding(raw -> raw.length == 1 ? ok : skipped).decode(new byte[1])).isSameAs(ok);
        assertThat(new Decoding(raw -> raw.length == 1 ? ok : skipped).decode(new byte[2])).isSameAs(skipped);
    }
}
