package io.hcwatch.haproxy;

import java.util.Locale;

/**
 * The format strings behind HAProxy 2.6's log options, as its binary holds them (src/log.c
 * default_http_log_format, default_https_log_format, default_tcp_log_format, clf_http_log_format;
 * configuration.txt, "Log formats"). One copy for the collector, which publishes a frontend's format
 * as one string whichever way haproxy.cfg gives it, and the stream app, which reads lines with it.
 */
public final class BuiltinLogFormats {

    /** {@code option httplog}. */
    public static final String HTTPLOG = "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc "
            + "%ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r";
    /** {@code option httpslog}: httplog followed by the connection's TLS details. */
    public static final String HTTPSLOG = HTTPLOG + " %[fc_err]/%[ssl_fc_err,hex]/%[ssl_c_err]/%[ssl_c_ca_err]"
            + "/%[ssl_fc_is_resumed] %[ssl_fc_sni]/%sslv/%sslc";
    /** {@code option tcplog}. */
    public static final String TCPLOG = "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq";
    /** {@code option httplog clf}: the Common Log Format, then HAProxy's own fields. */
    public static final String CLF = "%{+Q}o %{-Q}ci - - [%trg] %r %ST %B \"\" \"\" %cp %ms %ft %b %s %TR %Tw %Tc %Tr "
            + "%Ta %tsc %ac %fc %bc %sc %rc %sq %bq %CC %CS %hrl %hsl";

    private BuiltinLogFormats() {
    }

    /**
     * The format of {@code option <name>} ({@code httplog}, {@code httpslog}, {@code tcplog},
     * {@code clf} or {@code httplog clf}, with or without the word {@code option}), else null.
     */
    public static String named(String name) {
        if (name == null) {
            return null;
        }
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "httplog", "option httplog" -> HTTPLOG;
            case "httpslog", "option httpslog" -> HTTPSLOG;
            case "tcplog", "option tcplog" -> TCPLOG;
            case "clf", "httplog clf", "option httplog clf" -> CLF;
            default -> null;
        };
    }

    /**
     * The format a proxy logs with under {@code option <name>}: HTTP formats become tcplog outside
     * {@code mode http}, as HAProxy does; null for a name that is no log option.
     */
    public static String ofOption(String name, boolean httpMode) {
        String format = named(name);
        if (format == null || httpMode) {
            return format;
        }
        return TCPLOG;
    }
}
