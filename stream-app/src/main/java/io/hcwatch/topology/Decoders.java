package io.hcwatch.topology;

import io.hcwatch.avro.v1.HaproxyStats;
import io.hcwatch.avro.v1.HealthCheckResult;
import io.hcwatch.avro.v1.LbConfig;
import io.hcwatch.input.Check;
import io.hcwatch.input.LoadBalancerConfig;
import io.hcwatch.input.Poll;
import io.hcwatch.observability.LogText;
import io.hcwatch.parse.AlbAccessLogParser;
import io.hcwatch.parse.AlbHealthCheckLogParser;
import io.hcwatch.parse.HaproxyLogFormats;
import io.hcwatch.parse.HaproxyLogParser;
import io.hcwatch.parse.HaproxyStatsJson;
import io.hcwatch.parse.HealthCheckResultJson;
import io.hcwatch.parse.LbConfigJson;
import io.hcwatch.parse.LogDates;
import io.hcwatch.parse.ParseResult;
import io.hcwatch.parse.PublishedLogFormats;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The decoder of every input (docs/contract.md, "Input formats"): log parsers for raw lines, Avro-or-JSON for records. */
public final class Decoders {

    private static final Logger LOG = LoggerFactory.getLogger(Decoders.class);

    private Decoders() {
    }

    /**
     * @param serdeConfig registry settings for the Avro inputs
     * @param clock       supplies the year for syslog timestamps that carry none
     */
    public static Map<Source, Decoder> standard(Topics topics, Map<String, ?> serdeConfig, Clock clock) {
        return standard(topics, serdeConfig, LogDates.live(clock));
    }

    /**
     * @param serdeConfig registry settings for the Avro inputs
     * @param dates       completes HAProxy dates without a year or zone
     */
    public static Map<Source, Decoder> standard(Topics topics, Map<String, ?> serdeConfig, LogDates dates) {
        return standard(topics, serdeConfig, dates, HaproxyLogFormats.none());
    }

    /**
     * @param serdeConfig registry settings for the Avro inputs
     * @param dates       completes HAProxy dates without a year or zone
     * @param logFormats  the log-formats the settings declare for HAProxy frontends (haproxy.log-format.*);
     *                    the formats lb-config records publish apply to the other frontends from when
     *                    the record is decoded on ({@link PublishedLogFormats})
     */
    public static Map<Source, Decoder> standard(Topics topics, Map<String, ?> serdeConfig, LogDates dates,
                                                HaproxyLogFormats logFormats) {
        Map<Source, Decoder> d = new EnumMap<>(Source.class);
        AlbAccessLogParser alb = new AlbAccessLogParser();
        AlbHealthCheckLogParser albHealth = new AlbHealthCheckLogParser();
        PublishedLogFormats formats = new PublishedLogFormats(logFormats);
        HaproxyLogParser haproxy = new HaproxyLogParser(dates, formats);
        HealthCheckResultJson healthJson = new HealthCheckResultJson();
        LbConfigJson configJson = new LbConfigJson();
        d.put(Source.ALB, alb.traffic()::parse);
        d.put(Source.ALB_HEALTH, raw -> albHealth.parse(raw).map(Check::new));
        d.put(Source.HAPROXY, haproxy::parse);
        AvroOrJsonDecoder<HealthCheckResult> health = new AvroOrJsonDecoder<>(HealthCheckResult.class, serdeConfig,
                healthJson::parse, topics.input(Source.HEALTH));
        d.put(Source.HEALTH, raw -> health.decode(raw).map(Check::new));
        AvroOrJsonDecoder<HaproxyStats> stats = new AvroOrJsonDecoder<>(HaproxyStats.class, serdeConfig,
                new HaproxyStatsJson()::parse, topics.input(Source.HAPROXY_STATS));
        d.put(Source.HAPROXY_STATS, raw -> stats.decode(raw).map(Poll::new));
        AvroOrJsonDecoder<LbConfig> configs = new AvroOrJsonDecoder<>(LbConfig.class, serdeConfig, configJson::parse,
                topics.input(Source.CONFIG));
        d.put(Source.CONFIG, raw -> {
            ParseResult<LbConfig> config = configs.decode(raw);
            if (config instanceof ParseResult.Ok<LbConfig> ok) {
                published(formats, ok.value());
            }
            return config.map(LoadBalancerConfig::new);
        });
        return d;
    }

    /** A format that cannot be compiled leaves its frontend to the built-in parsers; the config itself still counts. */
    private static void published(PublishedLogFormats formats, LbConfig config) {
        String problem = formats.publish(config);
        if (problem != null) {
            LOG.warn("lb-config {} publishes a log-format that cannot be read; its lines are read as httplog or tcplog "
                    + "or dead-lettered until it changes: {}", LogText.of(config.getId()), LogText.of(problem));
        }
    }
}
