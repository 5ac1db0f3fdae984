package io.hcwatch.cli;

import io.hcwatch.cluster.ClusterLogin;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * What every hcwatch entry point ({@code ./hcwatch}, the production jars) does the same way: a bad
 * flag, a {@link UsageException} or a Kafka cluster that refuses the configured login
 * ({@link ClusterLogin.ClusterLoginException}) exits 2 with one line {@code hcwatch: ...}, and
 * {@code --version} prints the version in the jar's manifest.
 */
public final class Cli {

    /** Exit code of a bad flag or input. */
    public static final int EXIT_USAGE = 2;

    private Cli() {
    }

    /** Runs a command line and returns its exit code (2 for a bad flag or input, with one line saying why). */
    public static int execute(Object command, String... args) {
        return commandLine(command).execute(args);
    }

    /**
     * A picocli command line with hcwatch's exit codes; {@code alsoUsageErrors} are further
     * exceptions that mean "bad input" (a module's own configuration exception, say).
     */
    @SafeVarargs
    public static CommandLine commandLine(Object command, Class<? extends Exception>... alsoUsageErrors) {
        List<Class<? extends Exception>> usageErrors = List.of(alsoUsageErrors);
        CommandLine cli = new CommandLine(command);
        cli.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("hcwatch: " + ex.getMessage() + " (see: " + ex.getCommandLine().getCommandName() + " --help)");
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof UsageException || ex instanceof ClusterLogin.ClusterLoginException
                    || usageErrors.stream().anyMatch(k -> k.isInstance(ex))) {
                c.getErr().println("hcwatch: " + ex.getMessage());
                return EXIT_USAGE;
            }
            throw ex;
        });
        return cli;
    }

    /** The version baked into the jar's manifest, or "dev" when run from classes. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Cli.class.getPackage().getImplementationVersion();
            return new String[] {"hcwatch " + (v == null ? "dev" : v)};
        }
    }
}
