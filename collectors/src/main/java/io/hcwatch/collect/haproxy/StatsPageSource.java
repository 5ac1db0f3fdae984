package io.hcwatch.collect.haproxy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Reads the HTTP stats page: its {@code ;csv} form for the proxies, and the HTML page scoped to no
 * proxy for the process block (pid, uptime, maxconn), which the CSV lacks. The scope only keeps the
 * page small; the process block is read the same whatever it lists.
 */
final class StatsPageSource implements StatsSource {

    /** A scope no proxy name contains in practice; HAProxy matches scope as a substring. */
    static final String NO_PROXY_SCOPE = "hcwatch.no.proxy";

    private final HttpClient http;
    private final URI csvUri;
    private final URI infoUri;
    private final String authorization;
    private final Duration timeout;

    /**
     * @param csvUri    the page with {@code ;csv}, as configured
     * @param basicAuth {@code user:password}, or null
     */
    StatsPageSource(HttpClient http, URI csvUri, String basicAuth, Duration timeout) {
        this.http = http;
        this.csvUri = csvUri;
        this.infoUri = infoUri(csvUri);
        this.authorization = basicAuth == null ? null
                : "Basic " + Base64.getEncoder().encodeToString(basicAuth.getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
    }

    /** The HTML page of the same stats URI: {@code ;csv} dropped, {@code ;norefresh;scope=...} added. */
    static URI infoUri(URI csvUri) {
        // HAProxy matches the stats uri as a prefix and reads the ;options after it (the default uri is /haproxy?stats)
        return URI.create(csvUri.toString().replace(";csv", "") + ";norefresh;scope=" + NO_PROXY_SCOPE);
    }

    @Override
    public Snapshot read() throws PollException {
        String info = get(infoUri);
        String csv = get(csvUri);
        return StatRows.read(Csv.parse(csv), StatsPageInfo.parse(info));
    }

    private String get(URI uri) throws PollException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw new PollException(PollException.Reasons.TIMEOUT, uri + ": no answer within " + timeout.toMillis() + " ms", e);
        } catch (ConnectException e) {
            throw new PollException(PollException.Reasons.CONNECTION_REFUSED, uri + ": " + e, e);
        } catch (IOException e) {
            throw new PollException(PollException.Reasons.IO_ERROR, uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PollException(PollException.Reasons.IO_ERROR, uri + ": interrupted", e);
        }
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw new PollException(PollException.Reasons.PERMISSION_DENIED, uri + " answered " + status
                    + " (check haproxy.host.<id>.stats-auth-env)");
        }
        if (status != 200) {
            throw new PollException(PollException.Reasons.HTTP_STATUS, uri + " answered " + status);
        }
        return response.body();
    }

    @Override
    public String describe() {
        return "stats page " + csvUri;
    }
}
