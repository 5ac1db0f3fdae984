package io.hcwatch.input;

import io.hcwatch.avro.v1.HaproxyRequest;

/** One HAProxy traffic log line (http, tcp or a connection error), as the parser read it. */
public record HaproxyLine(HaproxyRequest request) implements Decoded {

    @Override
    public long eventTime() {
        return request.getTs().toEpochMilli();
    }

    @Override
    public <R> R accept(Decoded.Cases<R> cases) {
        return cases.haproxyLine(this);
    }
}
