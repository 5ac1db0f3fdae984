package io.hcwatch.sink.notify.pagerduty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Reads a routing key from environment variable {@code NAME}, or from the file named by
 * {@code NAME_FILE} (the Docker/Kubernetes secrets convention). Errors name the variable, never
 * its value.
 */
public final class RoutingKeyLoader {

    private final UnaryOperator<String> environment;

    public RoutingKeyLoader(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    public static RoutingKeyLoader fromSystemEnvironment() {
        return new RoutingKeyLoader(System::getenv);
    }

    public RoutingKey load(String variable) {
        String direct = environment.apply(variable);
        String file = environment.apply(variable + "_FILE");
        boolean hasDirect = direct != null && !direct.isBlank();
        boolean hasFile = file != null && !file.isBlank();
        if (hasDirect && hasFile) {
            throw new IllegalArgumentException("both " + variable + " and " + variable + "_FILE are set; set only one");
        }
        if (hasDirect) {
            return new RoutingKey(direct.strip(), variable);
        }
        if (hasFile) {
            return new RoutingKey(readKeyFile(variable, Path.of(file.strip())), variable + "_FILE");
        }
        throw new IllegalArgumentException("no PagerDuty routing key: set " + variable + " or " + variable + "_FILE");
    }

    private static String readKeyFile(String variable, Path path) {
        try {
            // Secret files usually end with a newline that is not part of the key.
            String key = Files.readString(path, StandardCharsets.UTF_8).strip();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("routing key file " + path + " (from " + variable + "_FILE) is empty");
            }
            return key;
        } catch (IOException e) {
            // The exception's own message holds only the path, but its type says what went wrong.
            throw new IllegalArgumentException("cannot read routing key file " + path + " (from " + variable
                    + "_FILE): " + e.getClass().getSimpleName());
        }
    }
}
