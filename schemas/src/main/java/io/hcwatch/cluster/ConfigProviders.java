package io.hcwatch.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigTransformer;

/**
 * Resolves {@code ${provider:path:key}} references in a command's properties file through Kafka's
 * config providers, declared in the file as Kafka clients declare them
 * ({@code config.providers=file}, {@code config.providers.file.class=...FileConfigProvider}). The
 * whole file is resolved once, at load, so a secret kept in a mounted file or the environment can
 * stand in any value: Kafka's SASL and TLS settings and the schema registry's credentials alike
 * (the registry client is hcwatch's own and knows no providers). Kafka's own resolution does the
 * work, so its rules hold: the providers {@code org.apache.kafka.automatic.config.providers}
 * allows, {@code allowed.paths}.
 */
public final class ConfigProviders {

    /** The key that declares the providers; it and every key under it are taken out once resolved. */
    public static final String PROVIDERS = "config.providers";

    private static final Pattern REFERENCE = ConfigTransformer.DEFAULT_PATTERN;

    private ConfigProviders() {
    }

    /**
     * The properties with every reference replaced by what its provider holds, and without the
     * providers' own keys.
     *
     * @throws ProviderException when a provider cannot be loaded or read, or a reference is left
     *                           unresolved (its provider is not declared, or has no such key); the
     *                           message names the key and the reference, never a resolved value
     */
    public static Properties resolve(Properties file) {
        Map<String, String> originals = new HashMap<>();
        for (String key : file.stringPropertyNames()) {
            originals.put(key, file.getProperty(key));
        }
        boolean declared = originals.keySet().stream().anyMatch(ConfigProviders::isProviderKey);
        Map<String, String> resolved = declared ? kafkaResolution(originals) : originals;
        Properties out = new Properties();
        for (Map.Entry<String, String> entry : originals.entrySet()) {
            String key = entry.getKey();
            if (isProviderKey(key)) {
                continue;
            }
            String value = resolved.get(key);
            refuseUnresolved(key, entry.getValue(), value, declaredProviders(originals));
            out.setProperty(key, value);
        }
        return out;
    }

    private static Map<String, String> kafkaResolution(Map<String, String> originals) {
        try {
            return new AbstractConfig(new ConfigDef(), originals, false).originalsStrings();
        } catch (ConfigException e) {
            // Kafka's messages name the provider class or the file it could not read, not the values it holds.
            throw new ProviderException(PROVIDERS, e.getMessage());
        }
    }

    private static void refuseUnresolved(String key, String original, String resolved, List<String> providers) {
        Matcher references = REFERENCE.matcher(original);
        while (references.find()) {
            String reference = references.group();
            // a reference that resolved is no longer in the value (the value it holds is not printed)
            if (!resolved.contains(reference)) {
                continue;
            }
            String provider = references.group(1);
            if (!providers.contains(provider)) {
                throw new ProviderException(key, "refers to " + reference + ", but " + PROVIDERS
                        + " does not declare a provider '" + provider + "'" + (providers.isEmpty() ? "" : " (it declares "
                        + String.join(", ", providers) + ")"));
            }
            throw new ProviderException(key, reference + " did not resolve: provider '" + provider
                    + "' holds no '" + references.group(4) + "'" + (references.group(3) == null ? ""
                    : " at " + references.group(3)) + " (or may not read it: allowed.paths)");
        }
    }

    private static List<String> declaredProviders(Map<String, String> originals) {
        String names = originals.getOrDefault(PROVIDERS, "");
        return java.util.Arrays.stream(names.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static boolean isProviderKey(String key) {
        return key.equals(PROVIDERS) || key.startsWith(PROVIDERS + ".");
    }

    /** A reference that cannot be resolved, or providers that cannot be used: a bad configuration. */
    public static final class ProviderException extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;
        private final String key;
        private final String problem;

        ProviderException(String key, String problem) {
            super("config key '" + key + "': " + problem);
            this.key = key;
            this.problem = problem;
        }

        /** The key whose value did not resolve, or {@value #PROVIDERS} when the providers failed. */
        public String key() {
            return key;
        }

        public String problem() {
            return problem;
        }
    }
}
