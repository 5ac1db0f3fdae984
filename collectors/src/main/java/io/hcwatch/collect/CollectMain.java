package io.hcwatch.collect;

import io.hcwatch.collect.alb.AlbCommand;
import io.hcwatch.collect.alblogs.AlbLogsCommand;
import io.hcwatch.collect.haproxy.HaproxyCommand;
import io.hcwatch.cluster.ClusterLogin;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code collect <collector> --config FILE}: runs one collector until stopped. A bad flag, a bad
 * configuration or a Kafka cluster that refuses the configured login exits 2 with one line saying why.
 */
@Command(name = "collect", mixinStandardHelpOptions = true,
        description = "Reads a load balancer's own interfaces and publishes hcwatch's input topics.",
        subcommands = {HaproxyCommand.class, AlbCommand.class, AlbLogsCommand.class, CommandLine.HelpCommand.class})
public final class CollectMain implements Runnable {

    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new CollectMain());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, a) -> {
            err.println(e.getCommandLine().getCommandName() + ": " + e.getMessage() + " (see --help)");
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof ConfigException || e instanceof ClusterLogin.ClusterLoginException) {
                err.println(commandLine.getCommandName() + ": " + e.getMessage());
                return EXIT_USAGE;
            }
            throw e;
        });
        return cli.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a collector, e.g. 'collect haproxy --config FILE'");
    }
}
