package io.hcwatch.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The production stream app's entry point, the main class of {@code hcwatch-stream-app.jar}:
 * {@code run} (the always-on processor) and {@code replay} (an operator's backtest on files). The
 * same commands are in {@code ./hcwatch}; the tools (demo, simulate, bench) are not in this jar.
 */
@Command(name = "hcwatch",
        mixinStandardHelpOptions = true,
        versionProvider = Cli.Version.class,
        description = "The hcwatch stream app: detects load-balancer health-check failure patterns in ALB, HAProxy and"
                + " health-check telemetry on Kafka.",
        subcommands = {RunCommand.class, ReplayCommand.class})
public final class StreamAppMain implements Runnable {

    public static void main(String[] args) {
        System.exit(Cli.execute(new StreamAppMain(), args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
