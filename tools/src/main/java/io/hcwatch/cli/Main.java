package io.hcwatch.cli;

import io.hcwatch.collect.CollectMain;
import io.hcwatch.collect.ConfigException;
import io.hcwatch.sink.SinkMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code ./hcwatch}: one entry point for every command, the tools (demo, simulate, bench) beside the
 * production commands (run and replay of the stream app, sink, collect), which reuse the production
 * jars' own command classes.
 */
@Command(name = "hcwatch",
        mixinStandardHelpOptions = true,
        versionProvider = Cli.Version.class,
        description = "Spots load-balancer health-check failure patterns (correlated failures, fail-open routing,"
                + " connection-slot exhaustion, ...) in ALB, HAProxy and health-check telemetry on Kafka.",
        subcommands = {DemoCommand.class, RunCommand.class, SinkMain.class, ReplayCommand.class, SimulateCommand.class,
                BenchCommand.class, CollectMain.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line and returns its exit code (2 for a bad flag or input, with one line saying why). */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command line {@link #execute} runs; tests give it their own error writer. */
    static CommandLine commandLine() {
        // a collector's bad configuration is a bad input like any other: exit 2, one line
        return Cli.commandLine(new Main(), ConfigException.class);
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
