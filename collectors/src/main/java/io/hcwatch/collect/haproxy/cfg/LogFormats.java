package io.hcwatch.collect.haproxy.cfg;

/**
 * The format strings behind HAProxy 2.6's log options, as its binary holds them (src/log.c
 * default_http_log_format, default_https_log_format, default_tcp_log_format, clf_http_log_format),
 * so a frontend's format is one string whichever way its configuration gives it.
 */
public final class LogFormats {

    public static final String HTTPLOG = "%ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %CC %CS %tsc "
            + "%ac/%fc/%bc/%sc/%rc %sq/%bq %hr %hs %{+Q}r";
    public static final String HTTPSLOG = HTTPLOG + " %[fc_err]/%[ssl_fc_err,hex]/%[ssl_c_err]/%[ssl_c_ca_err]"
            + "/%[ssl_fc_is_resumed] %[ssl_fc_sni]/%sslv/%sslc";
    public static final String TCPLOG = "%ci:%cp [%t] %ft %b/%s %Tw/%Tc/%Tt %B %ts %ac/%fc/%bc/%sc/%rc %sq/%bq";
    public static final String CLF = "%{+Q}o %{-Q}ci - - [%trg] %r %ST %B \"\" \"\" %cp %ms %ft %b %s %TR %Tw %Tc %Tr "
            + "%Ta %tsc %ac %fc %bc %sc %rc %sq %bq %CC %CS %hrl %hsl";

    private LogFormats() {
    }
}
