package io.hcwatch.config;

/** Prints the README's settings table from {@link Settings#CATALOG}, so the two never disagree. */
public final class SettingsTable {

    private SettingsTable() {
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder("| setting | default | meaning |\n|---|---|---|\n");
        for (Setting s : Settings.CATALOG) {
            sb.append("| `").append(s.key()).append("` | ").append(s.defaultValue().isEmpty() ? "(none)" : "`" + s.defaultValue() + "`")
                    .append(" | ")
                    .append(s.meaning().replace("|", "\\|")).append(" |\n");
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        System.out.print(markdown());
    }
}
