package io.hcwatch.collect.haproxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.StandardProtocolFamily;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Locale;

/**
 * Sends commands to HAProxy's runtime API in non-interactive mode: one connection, the command line,
 * then everything HAProxy writes until it closes. Every step is bounded by one deadline, so a
 * stalled socket costs at most {@code timeout}. Commands may be joined with ';' on one line; each
 * answer then ends with an empty line.
 */
final class RuntimeApiClient {

    /** show stat of a very large config is a few MB; more is not a stats answer. */
    private static final int MAX_ANSWER_BYTES = 64 << 20;

    private final RuntimeApiAddress address;
    private final Duration timeout;

    RuntimeApiClient(RuntimeApiAddress address, Duration timeout) {
        this.address = address;
        this.timeout = timeout;
    }

    RuntimeApiAddress address() {
        return address;
    }

    /** What reads an answer as it arrives, without holding all of it. */
    interface AnswerReader {
        void read(byte[] bytes, int length) throws PollException;
    }

    String execute(String commandLine) throws PollException {
        ByteArrayOutputStream answer = new ByteArrayOutputStream(64 * 1024);
        execute(commandLine, MAX_ANSWER_BYTES, (bytes, length) -> answer.write(bytes, 0, length));
        return answer.toString(StandardCharsets.UTF_8);
    }

    /**
     * Runs a command and hands its answer to {@code reader} chunk by chunk, refusing more than
     * {@code maxBytes}.
     */
    void execute(String commandLine, long maxBytes, AnswerReader reader) throws PollException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (SocketChannel channel = address.isUnix() ? SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
             Selector selector = Selector.open()) {
            channel.configureBlocking(false);
            if (!channel.connect(address.socketAddress())) {
                channel.register(selector, SelectionKey.OP_CONNECT);
                do {
                    await(selector, deadline, "connecting");
                } while (!channel.finishConnect());
            }
            ByteBuffer out = ByteBuffer.wrap((commandLine + "\n").getBytes(StandardCharsets.UTF_8));
            SelectionKey key = channel.register(selector, SelectionKey.OP_WRITE);
            while (out.hasRemaining()) {
                await(selector, deadline, "sending '" + commandLine + "'");
                channel.write(out);
            }
            key.interestOps(SelectionKey.OP_READ);
            ByteBuffer in = ByteBuffer.allocate(64 * 1024);
            long total = 0;
            while (true) {
                await(selector, deadline, "reading the answer to '" + commandLine + "'");
                int n = channel.read(in);
                if (n < 0) {
                    break;
                }
                total += in.position();
                if (total > maxBytes) {
                    throw new PollException(PollException.Reasons.UNKNOWN_FORMAT,
                            "the answer to '" + commandLine + "' exceeds " + maxBytes + " bytes");
                }
                reader.read(in.array(), in.position());
                in.clear();
            }
        } catch (IOException e) {
            throw classify(e);
        }
    }

    private void await(Selector selector, long deadline, String doing) throws IOException, PollException {
        long left = deadline - System.nanoTime();
        if (left <= 0 || selector.select(Math.max(1, left / 1_000_000)) == 0 && System.nanoTime() - deadline >= 0) {
            throw new PollException(PollException.Reasons.TIMEOUT, address + ": no progress " + doing + " within " + timeout.toMillis() + " ms");
        }
        selector.selectedKeys().clear();
    }

    private PollException classify(IOException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String lower = message.toLowerCase(Locale.ROOT);
        String reason;
        if (e instanceof AccessDeniedException || lower.contains("permission denied")) {
            reason = PollException.Reasons.PERMISSION_DENIED;
        } else if (e instanceof ConnectException || lower.contains("connection refused")) {
            reason = PollException.Reasons.CONNECTION_REFUSED;
        } else if (e instanceof NoSuchFileException || e instanceof NoRouteToHostException || e instanceof UnknownHostException
                || lower.contains("no such file") || lower.contains("unreachable")) {
            reason = PollException.Reasons.UNREACHABLE;
        } else {
            reason = PollException.Reasons.IO_ERROR;
        }
        return new PollException(reason, address + ": " + e.getClass().getSimpleName() + ": " + message, e);
    }
}
