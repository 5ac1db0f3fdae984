package io.hcwatch.observability;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reading the apps' endpoints as Prometheus would. */
public final class Scrapes {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)})?\\s+(\\S+)");

    private Scrapes() {
    }

    public static HttpResponse<String> get(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: GET " + url, e);
        }
    }

    public static String metrics(int port) {
        return get("http://127.0.0.1:" + port + "/metrics").body();
    }

    /** Names of the samples in a text-format scrape (with their _total, _bucket, _count ... suffixes). */
    public static Set<String> sampleNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.find()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The sum of the samples named {@code name} whose labels contain every {@code labels} fragment (0 if none). */
    public static double sum(String scrape, String name, String... labels) {
        double total = 0;
        for (String line : scrape.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (line.startsWith("#") || !m.find() || !m.group(1).equals(name)) {
                continue;
            }
            String labelText = m.group(3) == null ? "" : m.group(3);
            boolean all = true;
            for (String l : labels) {
                all &= labelText.contains(l);
            }
            if (all) {
                total += Double.parseDouble(m.group(4));
            }
        }
        return total;
    }

    /** The value of the first sample named {@code name} whose labels contain every {@code labels} fragment. */
    public static Double value(String scrape, String name, String... labels) {
        for (String line : scrape.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (line.startsWith("#") || !m.find() || !m.group(1).equals(name)) {
                continue;
            }
            String labelText = m.group(3) == null ? "" : m.group(3);
            boolean all = true;
            for (String l : labels) {
                all &= labelText.contains(l);
            }
            if (all) {
                return Double.parseDouble(m.group(4));
            }
        }
        return null;
    }
}
