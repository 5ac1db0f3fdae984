package io.hcwatch.topology;

import io.hcwatch.avro.v1.HaproxyLogFormat;
import io.hcwatch.avro.v1.HaproxyRequest;
import io.hcwatch.parse.HaproxyLineFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** One plain, successful HAProxy HTTP log line of a host at a time, as HAProxy writes it: a feed's data. */
public final class HaproxyLines {

    private static final HaproxyLineFormat FORMAT = new HaproxyLineFormat();

    private HaproxyLines() {
    }

    public static byte[] request(String host, Instant ts) {
        HaproxyRequest r = HaproxyRequest.newBuilder().setFormat(HaproxyLogFormat.http).setTs(ts).setHost(host)
                .setProcess("haproxy").setPid(4242).setClientIp("198.51.100.10").setClientPort(40_000)
                .setFrontend("www").setBackend("app").setServer("web1").setTr(0).setTw(0).setTc(1)
                .setTrServer(20).setTa(30).setStatusCode(200).setBytesRead(1200L).setTerminationState("----")
                .setActconn(10).setFeconn(10).setBeconn(5).setSrvConn(2)
                .setRetries(0).setSrvQueue(0).setBackendQueue(0).setHttpMethod("GET").setHttpUri("/")
                .setHttpVersion("HTTP/1.1").build();
        return FORMAT.format(r).getBytes(StandardCharsets.UTF_8);
    }
}
