package io.hcwatch.sink.notify;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Answers with the given results in turn, then delivers. */
final class ScriptedNotifier implements Notifier {

    private final Deque<DeliveryResult> script;
    private int calls;

    ScriptedNotifier(DeliveryResult... results) {
        this.script = new ArrayDeque<>(List.of(results));
    }

    @Override
    public String name() {
        return "pagerduty";
    }

    @Override
    public DeliveryResult deliver(Page page) {
        calls++;
        return script.isEmpty() ? DeliveryResult.delivered() : script.poll();
    }

    int calls() {
        return calls;
    }
}
