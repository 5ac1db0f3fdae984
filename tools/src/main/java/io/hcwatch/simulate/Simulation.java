package io.hcwatch.simulate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * A scenario's telemetry as a time-ordered stream: ALB access-log lines, ALB health-check log
 * lines, HAProxy lines, HealthCheckResult and LbConfig JSON, each with its event time. Generated
 * as it is consumed, so a day of traffic never sits in memory; the same scenario, parameters and
 * seed give the same records. Single use: call {@link #run} or {@link #iterator} once.
 *
 * <pre>{@code
 * Simulation.of(Scenario.TIMEOUT_CUT).run(t -> producer.send(topic(t.source()), t.value()));
 * }</pre>
 */
public final class Simulation implements Iterable<Telemetry> {

    private final Scenario scenario;
    private final ScenarioParams params;
    private final World world;
    private volatile SimulationStatus status;
    private boolean started;

    private Simulation(Scenario scenario, ScenarioParams params, boolean aws) {
        this.scenario = scenario;
        this.params = params;
        this.world = new World(params);
        if (aws) {
            world.collector = new CollectorModel(world);
        }
        scenario.configure(world);
        new Noise(world).begin();
        world.begin();
        world.every(world.start(), 1_000, this::publishStatus);
        publishStatus();
    }

    public static Simulation of(Scenario scenario) {
        return of(scenario, scenario.defaults());
    }

    public static Simulation of(Scenario scenario, ScenarioParams params) {
        return new Simulation(scenario, params, false);
    }

    /**
     * The scenario as an AWS account delivers it: target states and settings as {@code collect alb}
     * publishes them (HealthCheckResult on each change, LbConfig with the target→zone map), every
     * check as a line of ALB's health-check logs (no zone), access logs as before. Group the log
     * lines into S3 objects with {@link AwsDelivery}.
     */
    public static Simulation ofAws(Scenario scenario, ScenarioParams params) {
        return new Simulation(scenario, params, true);
    }

    public Scenario scenario() {
        return scenario;
    }

    public ScenarioParams params() {
        return params;
    }

    /** Generates everything, handing each record to {@code sink} in event-time order. */
    public void run(Consumer<Telemetry> sink) {
        begin();
        while (world.engine.step(sink)) {
            // each step runs one scheduled action of the models
        }
        publishStatus();
    }

    /** The records one by one, generated as they are pulled. */
    @Override
    public Iterator<Telemetry> iterator() {
        begin();
        ArrayDeque<Telemetry> ready = new ArrayDeque<>();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && world.engine.step(ready::add)) {
                    // generate until a record is ready or the run is over
                }
                if (ready.isEmpty()) {
                    publishStatus();
                }
                return !ready.isEmpty();
            }

            @Override
            public Telemetry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.poll();
            }
        };
    }

    /** The latest status, safe to read from any thread (refreshed every simulated second). */
    public SimulationStatus status() {
        return status;
    }

    private void begin() {
        if (started) {
            throw new IllegalStateException("a Simulation runs once; create another for a second run");
        }
        started = true;
    }

    private void publishStatus() {
        List<SimulationStatus.GroupHealth> groups = new ArrayList<>();
        for (AlbTargetGroup tg : world.alb.groups) {
            groups.add(new SimulationStatus.GroupHealth(tg.name, tg.healthy(), tg.active().size()));
        }
        List<SimulationStatus.FrontendLoad> frontends = new ArrayList<>();
        for (HaproxyModel.Host h : world.haproxy.hosts) {
            for (HaproxyModel.Frontend f : h.frontends) {
                frontends.add(new SimulationStatus.FrontendLoad(h.name, f.name, f.connections.size(), f.maxconn));
            }
        }
        status = new SimulationStatus(world.engine.now(), world.engine.emitted(), List.copyOf(groups), List.copyOf(frontends));
    }
}
