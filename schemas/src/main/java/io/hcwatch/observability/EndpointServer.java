package io.hcwatch.observability;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operational endpoints every app serves: {@code /metrics} (Prometheus text format),
 * {@code /health} (the process answers; touches nothing external, so a slow broker never makes an
 * orchestrator kill a healthy process) and {@code /ready} (200 only while {@code ready} holds).
 *
 * <p>A liveness probe that goes unanswered gets the process killed, so no client may hold the
 * endpoints up: each connection has its own thread (up to {@link #MAX_CONNECTIONS}; beyond that new
 * connections are closed at once), its request head must arrive within
 * {@link Timeouts#requestHead}, and the whole exchange, answer included, is cut at
 * {@link Timeouts#exchange}, so a client that stalls or never reads its answer costs one thread for
 * that long at most. One request per connection ({@code Connection: close}), which every probe and
 * Prometheus handle. The JDK's HttpServer, used before, had no read timeout and two threads: two
 * stalled clients kept {@code /health} from answering.
 */
public final class EndpointServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointServer.class);
    private static final String TEXT = "text/plain; charset=utf-8";
    /** Prometheus text exposition format 0.0.4, which every Prometheus version scrapes. */
    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    /** Far above what probes and scrapers open at once; each costs an idle thread at most. */
    static final int MAX_CONNECTIONS = 64;

    /** How long a client may take to send its request head, and the whole exchange. */
    public record Timeouts(Duration requestHead, Duration exchange) {
        /** Well inside the 10 s Prometheus and Kubernetes give a scrape or probe by default, and longer than any answer takes. */
        public static final Timeouts DEFAULT = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(30));
    }

    private record Answer(int status, String contentType, String body) {
    }

    private final ServerSocket socket;
    private final Map<String, Supplier<Answer>> routes;
    private final Timeouts timeouts;
    private final ExecutorService workers;
    private final ScheduledExecutorService deadlines;
    private final Semaphore connections = new Semaphore(MAX_CONNECTIONS);
    private final Thread acceptor;
    private volatile boolean closed;

    private EndpointServer(ServerSocket socket, Map<String, Supplier<Answer>> routes, Timeouts timeouts) {
        this.socket = socket;
        this.routes = routes;
        this.timeouts = timeouts;
        AtomicInteger threads = new AtomicInteger();
        // room above the connection limit: a thread that has released its connection may not be waiting for work yet
        this.workers = new ThreadPoolExecutor(0, 2 * MAX_CONNECTIONS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                r -> daemon(r, "hcwatch-endpoints-" + threads.incrementAndGet()));
        this.deadlines = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "hcwatch-endpoints-deadlines"));
        this.acceptor = daemon(this::accept, "hcwatch-endpoints-accept");
    }

    /**
     * @param host address to bind, e.g. {@code 0.0.0.0} in a container or {@code 127.0.0.1}
     * @param port 0 for an ephemeral port (see {@link #port()})
     */
    public static EndpointServer start(String host, int port, PrometheusMeterRegistry registry, BooleanSupplier ready) {
        return start(host, port, registry, ready, List::of);
    }

    /**
     * As {@link #start(String, int, PrometheusMeterRegistry, BooleanSupplier)}, and {@code /ready}
     * adds the lines {@code notes} gives below its first line: conditions an operator should see
     * that do not decide readiness (the sink's deliveries held by a PagerDuty outage).
     */
    public static EndpointServer start(String host, int port, PrometheusMeterRegistry registry, BooleanSupplier ready,
            Supplier<List<String>> notes) {
        return start(host, port, registry, ready, notes, Timeouts.DEFAULT);
    }

    static EndpointServer start(String host, int port, PrometheusMeterRegistry registry, BooleanSupplier ready,
            Supplier<List<String>> notes, Timeouts timeouts) {
        ServerSocket socket;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port), 128);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve metrics on " + host + ":" + port, e);
        }
        Map<String, Supplier<Answer>> routes = Map.of(
                "/metrics", () -> new Answer(200, PROMETHEUS_TEXT, registry.scrape()),
                "/health", () -> new Answer(200, TEXT, "ok\n"),
                "/ready", () -> {
                    boolean isReady = ready.getAsBoolean();
                    StringBuilder body = new StringBuilder(isReady ? "ready\n" : "not ready\n");
                    notes.get().forEach(note -> body.append(note).append('\n'));
                    return new Answer(isReady ? 200 : 503, TEXT, body.toString());
                });
        EndpointServer server = new EndpointServer(socket, routes, timeouts);
        server.acceptor.start();
        return server;
    }

    public int port() {
        return socket.getLocalPort();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                if (!closed) {
                    // out of file descriptors, say: wait rather than spin
                    LOG.warn("endpoints: accept failed: {}", e.toString());
                    pause();
                }
                continue;
            }
            if (!connections.tryAcquire()) {
                closeQuietly(client);
                continue;
            }
            try {
                workers.execute(() -> {
                    try {
                        serve(client);
                    } finally {
                        connections.release();
                    }
                });
            } catch (RejectedExecutionException e) {
                connections.release();
                closeQuietly(client);
            }
        }
    }

    private void serve(Socket client) {
        long start = System.nanoTime();
        ScheduledFuture<?> cut = deadlines.schedule(() -> closeQuietly(client), timeouts.exchange().toNanos(), TimeUnit.NANOSECONDS);
        try (client) {
            Answer answer;
            String method = "GET";
            try {
                RequestHead head = RequestHead.read(client, start + timeouts.requestHead().toNanos());
                method = head.method();
                answer = answer(head);
            } catch (RequestHead.Unreadable e) {
                if (e.status == 0) {
                    return;
                }
                answer = new Answer(e.status, TEXT, e.getMessage() + "\n");
            }
            write(client.getOutputStream(), method, answer);
        } catch (IOException | RuntimeException e) {
            // the client went away, or the exchange outlived its deadline: nothing to answer to
            LOG.debug("endpoints: exchange ended: {}", e.toString());
        } finally {
            cut.cancel(false);
        }
    }

    private Answer answer(RequestHead head) {
        Supplier<Answer> route = routes.get(head.path());
        if (route == null) {
            return new Answer(404, TEXT, "not found\n");
        }
        if (!head.method().equals("GET") && !head.method().equals("HEAD")) {
            return new Answer(405, TEXT, "method not allowed\n");
        }
        return route.get();
    }

    private static void write(OutputStream out, String method, Answer answer) throws IOException {
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(200).append("HTTP/1.1 ").append(answer.status()).append(' ')
                .append(reason(answer.status())).append("\r\n")
                .append("Content-Type: ").append(answer.contentType()).append("\r\n")
                .append("Cache-Control: no-store\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n")
                .append("Connection: close\r\n");
        if (answer.status() == 405) {
            head.append("Allow: GET, HEAD\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        if (!method.equals("HEAD")) {
            out.write(body);
        }
        out.flush();
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread thread = new Thread(r, name);
        thread.setDaemon(true);
        return thread;
    }

    private static void closeQuietly(Socket client) {
        try {
            client.close();
        } catch (IOException e) {
            // closing is all that was left to do
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("endpoints: closing: {}", e.toString());
        }
        workers.shutdownNow();
        deadlines.shutdownNow();
    }
}
