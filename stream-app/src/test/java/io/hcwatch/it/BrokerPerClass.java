package io.hcwatch.it;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link BrokerAndRegistry} for all the tests of a class ({@code @RegisterExtension static}),
 * each harness on topics of its own.
 */
final class BrokerPerClass implements BeforeAllCallback, AfterAllCallback {

    private BrokerAndRegistry cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = new BrokerAndRegistry();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        cluster.close();
    }

    LiveHarness harness(int inputPartitions) {
        return LiveHarness.on(cluster, inputPartitions);
    }
}
