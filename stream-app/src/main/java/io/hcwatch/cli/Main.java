package io.hcwatch.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./hcwatch}: one entry point for every SPEC section 6 command. */
@Command(name = "hcwatch",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Spots load-balancer health-check failure patterns (correlated failures, fail-open routing,"
                + " connection-slot exhaustion, ...) in ALB, HAProxy and health-check telemetry on Kafka.",
        subcommands = {DemoCommand.class, RunCommand.class, SinkCommand.class, ReplayCommand.class, SimulateCommand.class,
                BenchCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line and returns its exit code (2 for a bad flag or input, with one line saying why). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler((ex, a) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("hcwatch: " + ex.getMessage() + " (see: " + ex.getCommandLine().getCommandName() + " --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof UsageException u) {
                c.getErr().println("hcwatch: " + u.getMessage());
                return 2;
            }
            throw ex;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** The version baked into the jar's manifest, or "dev" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"hcwatch " + (v == null ? "dev" : v)};
        }
    }
}
