package io.hcwatch.collect.haproxy;

/**
 * Reads {@code show info} and {@code show stat} over the runtime API in one connection, so both
 * come from the same worker at nearly the same moment. Each answer ends with an empty line; an
 * answer without it was cut short.
 */
final class RuntimeApiSource implements StatsSource {

    static final String COMMANDS = "show info;show stat";

    private final RuntimeApiClient client;

    RuntimeApiSource(RuntimeApiClient client) {
        this.client = client;
    }

    @Override
    public Snapshot read() throws PollException {
        return parse(client.execute(COMMANDS));
    }

    /** The answer to {@link #COMMANDS}. */
    static Snapshot parse(String answer) throws PollException {
        refused(answer);
        int infoEnd = answer.indexOf("\n\n");
        if (infoEnd < 0) {
            throw new PollException(PollException.Reasons.TRUNCATED,
                    "the answer to 'show info' ends before its closing empty line: '" + Csv.shown(answer) + "'");
        }
        ProcessInfo process = ShowInfo.parse(answer.substring(0, infoEnd + 1));
        String stat = answer.substring(infoEnd + 2);
        refused(stat);
        if (!stat.endsWith("\n\n")) {
            throw new PollException(PollException.Reasons.TRUNCATED,
                    "the answer to 'show stat' ends before its closing empty line (" + stat.length() + " bytes)");
        }
        return StatRows.read(Csv.parse(stat.substring(0, stat.length() - 1)), process);
    }

    /** HAProxy answers a command it does not know or does not allow at the socket's level with a sentence. */
    private static void refused(String answer) throws PollException {
        if (answer.startsWith("Unknown command")) {
            throw new PollException(PollException.Reasons.UNKNOWN_COMMAND,
                    "HAProxy does not know '" + COMMANDS + "': '" + Csv.shown(answer) + "'");
        }
        if (answer.startsWith("Permission denied")) {
            throw new PollException(PollException.Reasons.PERMISSION_DENIED,
                    "HAProxy refused '" + COMMANDS + "' at this socket's level: '" + Csv.shown(answer) + "'");
        }
        if (answer.isEmpty()) {
            throw new PollException(PollException.Reasons.TRUNCATED, "HAProxy closed the connection without an answer");
        }
    }

    /** A frontend of 50,000 sessions answers ~16 MB; far more than that is not a show sess answer. */
    static final long MAX_SESSIONS_ANSWER = 256L << 20;

    @Override
    public SessionSources sessions(java.util.Set<String> frontends) throws PollException {
        SessionSources sources = new SessionSources(frontends);
        client.execute("show sess", MAX_SESSIONS_ANSWER, sources);
        if (sources.refusal() != null) {
            throw new PollException(sources.refusal().startsWith("Permission denied") ? PollException.Reasons.PERMISSION_DENIED
                    : PollException.Reasons.UNKNOWN_COMMAND, "HAProxy refused 'show sess' (it needs a socket at level operator or admin): '"
                    + Csv.shown(sources.refusal()) + "'");
        }
        return sources;
    }

    @Override
    public String describe() {
        return "runtime API " + client.address();
    }
}
