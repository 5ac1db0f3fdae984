package io.hcwatch.registry;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/**
 * HTTP basic credentials for the registry. They never print, and {@link #redact} scrubs them
 * from any text the client reports, including text a registry or proxy echoed back.
 */
public final class BasicAuth {

    private static final String REDACTED = "[redacted]";

    private final String headerValue;
    private final List<String> secrets;

    private BasicAuth(String userInfo) {
        String token = Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        this.headerValue = "Basic " + token;
        List<String> all = new ArrayList<>(List.of(userInfo, token));
        int colon = userInfo.indexOf(':');
        if (colon >= 0 && colon < userInfo.length() - 1) {
            all.add(userInfo.substring(colon + 1));
        }
        // Longest first, so the password inside user:password does not leave the user name behind a partial mask.
        all.sort(Comparator.comparingInt(String::length).reversed());
        this.secrets = List.copyOf(all);
    }

    /** Credentials from {@code user:password}. */
    public static BasicAuth fromUserInfo(String userInfo) {
        if (userInfo == null || userInfo.isEmpty()) {
            throw new IllegalArgumentException("basic auth user info is empty");
        }
        return new BasicAuth(userInfo);
    }

    String headerValue() {
        return headerValue;
    }

    /** {@code text} with every form of the credentials replaced. */
    public String redact(String text) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : secrets) {
            result = result.replace(secret, REDACTED);
        }
        return result;
    }

    @Override
    public String toString() {
        return "BasicAuth" + REDACTED;
    }
}
