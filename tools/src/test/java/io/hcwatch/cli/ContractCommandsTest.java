package io.hcwatch.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.simulate.Scenario;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * docs/contract.md's command table and scenario list are the ones {@code ./hcwatch} has: a command
 * or scenario added, renamed or removed in the code fails here until the contract says so too.
 */
class ContractCommandsTest {

    private static final Path CONTRACT = Path.of("..", "docs", "contract.md");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void theCommandTableNamesEveryCommandAndEverySubcommandOfTheLauncher() throws IOException {
        assertThat(documentedCommands()).isEqualTo(launcherCommands());
    }

    @Test
    void theScenarioListIsTheSimulatorsWithTheirAliases() throws IOException {
        String expected = "Scenarios: " + Arrays.stream(Scenario.values())
                .map(s -> "`" + s.id() + "`" + (s.aliases().isEmpty() ? ""
                        : s.aliases().stream().map(a -> "`" + a + "`").collect(Collectors.joining(", ", " (also ", ")"))))
                .collect(Collectors.joining(", ")) + ".";
        String text = contract();
        int start = text.indexOf("\nScenarios: ");
        assertThat(start).as("a paragraph 'Scenarios: ' in %s", CONTRACT).isNotNegative();
        int end = text.indexOf("\n\n", start + 1);
        assertThat(text.substring(start + 1, end < 0 ? text.length() : end).replaceAll("\\s+", " ")).isEqualTo(expected);
    }

    /** Each command of the launcher with its subcommands (empty when it has none), help left out. */
    private static Map<String, Set<String>> launcherCommands() {
        Map<String, Set<String>> out = new TreeMap<>();
        Main.commandLine().getSubcommands().forEach((name, command) -> {
            if (!(command.getCommand() instanceof CommandLine.HelpCommand)) {
                out.put(name, subcommands(command));
            }
        });
        return out;
    }

    private static Set<String> subcommands(CommandLine command) {
        Set<String> out = new TreeSet<>();
        command.getSubcommands().forEach((name, sub) -> {
            if (!(sub.getCommand() instanceof CommandLine.HelpCommand)) {
                out.add(name);
            }
        });
        return out;
    }

    /**
     * The first cell of each row of the table under "Commands and exit codes": every code span in it
     * is a usage, whose first word is the command and whose second, when it is a list {@code a\|b},
     * its subcommands.
     */
    private static Map<String, Set<String>> documentedCommands() throws IOException {
        List<String> lines = contract().lines().toList();
        int header = lines.indexOf("| command | does |");
        assertThat(header).as("the command table's header in %s", CONTRACT).isNotNegative();
        Map<String, Set<String>> out = new TreeMap<>();
        for (String line : lines.subList(header + 2, lines.size())) {
            if (!line.startsWith("|")) {
                break;
            }
            String firstCell = line.substring(1, line.indexOf(" | "));
            Matcher usage = CODE.matcher(firstCell);
            while (usage.find()) {
                List<String> words = new ArrayList<>(List.of(usage.group(1).split(" ")));
                Set<String> subs = out.computeIfAbsent(words.get(0), k -> new TreeSet<>());
                if (words.size() > 1 && words.get(1).contains("\\|")) {
                    subs.addAll(List.of(words.get(1).split("\\\\\\|")));
                }
            }
        }
        return out;
    }

    private static String contract() throws IOException {
        return Files.readString(CONTRACT, StandardCharsets.UTF_8);
    }
}
