package io.hcwatch.parse;

import io.hcwatch.input.AlbTrafficLine;
import io.hcwatch.input.BackendNotice;
import io.hcwatch.input.Check;
import io.hcwatch.input.Decoded;
import io.hcwatch.input.HaproxyLine;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import org.apache.avro.specific.SpecificRecord;

/** The Avro record inside what a parser decoded, for tests that read the record's fields. */
final class AvroForm implements Decoded.Cases<SpecificRecord> {

    private static final AvroForm INSTANCE = new AvroForm();

    static ParseResult<SpecificRecord> of(ParseResult<? extends Decoded> result) {
        return result.map(d -> d.accept(INSTANCE));
    }

    @Override
    public SpecificRecord albLine(AlbTrafficLine line) {
        throw new IllegalArgumentException("an ALB traffic line is no Avro record");
    }

    @Override
    public SpecificRecord haproxyLine(HaproxyLine line) {
        return line.request();
    }

    @Override
    public SpecificRecord check(Check check) {
        return check.result();
    }

    @Override
    public SpecificRecord backendNotice(BackendNotice notice) {
        return notice.event();
    }

    @Override
    public SpecificRecord config(LoadBalancerConfig config) {
        return config.config();
    }

    @Override
    public SpecificRecord poll(Poll poll) {
        return poll.stats();
    }
}
