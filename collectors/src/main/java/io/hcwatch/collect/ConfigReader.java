package io.hcwatch.collect;

import io.hcwatch.cluster.ConfigProviders;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed reads of a collector's properties file. Every read claims its key; {@link #refuseUnclaimed()}
 * then refuses whatever no reader asked for, so a misspelt key fails at start instead of silently
 * falling back to a default. Collectors share one file format: each reads its own keys here. Any
 * value may be a reference to a config provider's secret, resolved when the reader is made
 * ({@link ConfigProviders}).
 */
public final class ConfigReader {

    private final Properties properties;
    private final Set<String> claimed = new HashSet<>();
    private final List<String> claimedPrefixes = new ArrayList<>();

    /** @throws ConfigException when a reference to a config provider's secret does not resolve */
    public ConfigReader(Properties properties) {
        try {
            this.properties = ConfigProviders.resolve(properties);
        } catch (ConfigProviders.ProviderException e) {
            throw ConfigException.key(e.key(), e.problem());
        }
    }

    public static ConfigReader load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
        return new ConfigReader(p);
    }

    public String text(String key, String defaultValue) {
        claimed.add(key);
        String v = properties.getProperty(key);
        return v == null || v.isBlank() ? defaultValue : v.strip();
    }

    public String required(String key) {
        String v = text(key, null);
        if (v == null) {
            throw ConfigException.key(key, "is required");
        }
        return v;
    }

    /** Comma-separated values, blanks dropped, order kept, duplicates refused. */
    public List<String> list(String key) {
        Set<String> values = new LinkedHashSet<>();
        String text = text(key, "");
        for (String value : text.split(",")) {
            if (!value.isBlank() && !values.add(value.strip())) {
                throw ConfigException.key(key, "lists '" + value.strip() + "' twice");
            }
        }
        return List.copyOf(values);
    }

    public int integer(String key, int defaultValue, int min, int max) {
        String v = text(key, null);
        if (v == null) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(v);
            if (parsed < min || parsed > max) {
                throw ConfigException.key(key, "expected " + min + ".." + max + ", got " + parsed);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw ConfigException.key(key, "expected an integer, got '" + v + "'");
        }
    }

    /** Whole milliseconds. */
    public Duration millis(String key, long defaultMillis, long min, long max) {
        String v = text(key, null);
        if (v == null) {
            return Duration.ofMillis(defaultMillis);
        }
        try {
            long parsed = Long.parseLong(v);
            if (parsed < min || parsed > max) {
                throw ConfigException.key(key, "expected milliseconds " + min + ".." + max + ", got " + parsed);
            }
            return Duration.ofMillis(parsed);
        } catch (NumberFormatException e) {
            throw ConfigException.key(key, "expected a whole number of milliseconds, got '" + v + "'");
        }
    }

    /** Every key under {@code prefix}, without it; the prefix is claimed whole. */
    public Map<String, String> withPrefix(String prefix) {
        claimedPrefixes.add(prefix);
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (key.startsWith(prefix)) {
                out.put(key.substring(prefix.length()), properties.getProperty(key).strip());
            }
        }
        return out;
    }

    /** Keys under {@code prefix} (whole keys), without claiming them. */
    public Set<String> keysUnder(String prefix) {
        Set<String> out = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith(prefix)) {
                out.add(key);
            }
        }
        return out;
    }

    /** @throws ConfigException naming the first key (in sorted order) that no read claimed */
    public void refuseUnclaimed() {
        Set<String> unknown = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            if (!claimed.contains(key) && claimedPrefixes.stream().noneMatch(key::startsWith)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigException("unknown config key" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
                    + " (collectors/README.md lists the keys)");
        }
    }
}
