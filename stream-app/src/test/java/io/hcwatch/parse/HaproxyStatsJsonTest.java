package io.hcwatch.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.avro.v1.HaproxyStats;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The JSON form of HaproxyStats, as {@code collect haproxy} writes it with format=json (collectors' AvroJson). */
class HaproxyStatsJsonTest {

    /** One poll as the collector writes it: every field, absent ones as null, ts as ISO-8601. */
    private static final String POLL = """
            {"ts":"2026-12-02T10:00:01.300Z","host":"web1","pid":6386,"uptime_sec":420,"reloaded":false,"interval_ms":1000,\
            "curr_conns":214,"maxconn":4000,"conn_rate":12,"sess_rate":12,"run_queue":0,"idle_pct":97,\
            "frontends":[{"name":"www","status":"FULL","scur":200,"slim":200,"smax":200,"qcur":null,"rate":3,"req_rate":3,\
            "conn_rate":3,"stot_delta":3,"ereq_delta":0,"dreq_delta":0,"dcon_delta":0},\
            {"name":"stats","status":"OPEN","scur":1,"slim":null,"smax":2,"qcur":null,"rate":0,"req_rate":null,"conn_rate":null,\
            "stot_delta":null,"ereq_delta":null,"dreq_delta":null,"dcon_delta":null}],\
            "backends":[{"name":"app","status":"UP","scur":14,"qcur":0,"active_servers":3,"backup_servers":0,"stot_delta":3,\
            "econ_delta":0,"eresp_delta":0}]}""";

    private final HaproxyStatsJson parser = new HaproxyStatsJson();

    @Test
    void aPollAsTheCollectorWritesIt() {
        ParseResult<HaproxyStats> r = parser.parse(POLL);
        assertThat(r).isInstanceOf(ParseResult.Ok.class);
        HaproxyStats s = ((ParseResult.Ok<HaproxyStats>) r).value();
        assertThat(s.getTs()).isEqualTo(Instant.parse("2026-12-02T10:00:01.300Z"));
        assertThat(s.getHost()).isEqualTo("web1");
        assertThat(s.getCurrConns()).isEqualTo(214);
        assertThat(s.getMaxconn()).isEqualTo(4000);
        assertThat(s.getIntervalMs()).isEqualTo(1000L);
        assertThat(s.getFrontends()).hasSize(2);
        assertThat(s.getFrontends().get(0).getName()).isEqualTo("www");
        assertThat(s.getFrontends().get(0).getScur()).isEqualTo(200);
        assertThat(s.getFrontends().get(0).getSlim()).isEqualTo(200);
        assertThat(s.getFrontends().get(0).getStotDelta()).isEqualTo(3L);
        assertThat(s.getFrontends().get(1).getSlim()).isNull();
        assertThat(s.getBackends()).singleElement().satisfies(b -> assertThat(b.getActiveServers()).isEqualTo(3));
    }

    @Test
    void theHoldersOfAFrontendNearItsLimitAsTheCollectorListsThem() {
        String withHolders = POLL.replace("\"dcon_delta\":0}", "\"dcon_delta\":0,\"holders\":[{\"source\":\"127.0.0.1\",\"sessions\":180},"
                + "{\"source\":\"2001:db8:1:2::/64\",\"sessions\":15}],\"sessions_listed\":200}");

        HaproxyStats s = ((ParseResult.Ok<HaproxyStats>) parser.parse(withHolders)).value();

        assertThat(s.getFrontends().get(0).getHolders()).extracting(h -> h.getSource() + "=" + h.getSessions())
                .containsExactly("127.0.0.1=180", "2001:db8:1:2::/64=15");
        assertThat(s.getFrontends().get(0).getSessionsListed()).isEqualTo(200);
        assertThat(s.getFrontends().get(1).getHolders()).as("not read for a frontend far from its limit").isNull();
        assertThat(parser.parse(withHolders.replace("\"sessions\":15", "\"sessions\":-1")))
                .isInstanceOf(ParseResult.Rejected.class);
    }

    @Test
    void onlyTsHostAndEachFrontendsNameAndScurAreRequired() {
        ParseResult<HaproxyStats> r = parser.parse("{\"ts\":1764669601300,\"host\":\"web1\",\"frontends\":[{\"name\":\"www\",\"scur\":5}]}");
        assertThat(r).isInstanceOf(ParseResult.Ok.class);
        HaproxyStats s = ((ParseResult.Ok<HaproxyStats>) r).value();
        assertThat(s.getTs()).isEqualTo(Instant.ofEpochMilli(1764669601300L));
        assertThat(s.getFrontends().get(0).getSmax()).isZero();
        assertThat(s.getBackends()).isEmpty();
        assertThat(s.getReloaded()).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            {"host":"web1"}                                                      | missing_field
            {"ts":"2026-12-02T10:00:01Z"}                                        | missing_field
            {"ts":"2026-12-02T10:00:01Z","host":"a/b"}                           | bad_field
            {"ts":"yesterday","host":"web1"}                                     | bad_timestamp
            {"ts":"2026-12-02T10:00:01Z","host":"web1","frontends":{}}           | bad_type
            {"ts":"2026-12-02T10:00:01Z","host":"web1","frontends":[7]}          | bad_type
            {"ts":"2026-12-02T10:00:01Z","host":"web1","frontends":[{"name":"www"}]} | missing_field
            {"ts":"2026-12-02T10:00:01Z","host":"web1","frontends":[{"name":"www","scur":-1}]} | bad_number
            {"ts":"2026-12-02T10:00:01Z","host":"web1","frontends":[{"name":"www","scur":1,"stot_delta":-3}]} | bad_number
            {"ts":"2026-12-02T10:00:01Z","host":"web1","curr_conns":"many"}      | bad_number
            {"ts":"2026-12-02T10:00:01Z","host":"web1"                           | bad_json
            """)
    void badPollsAreRefusedWithTheirReason(String json, String reason) {
        ParseResult<HaproxyStats> r = parser.parse(json);
        assertThat(r).isInstanceOfSatisfying(ParseResult.Rejected.class, x -> assertThat(x.reason()).isEqualTo(reason));
    }
}
