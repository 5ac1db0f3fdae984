package io.hcwatch.sink.notify;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.serde.AlertJson;
import java.io.PrintStream;

/** Writes each alert as one {@link AlertJson} line, for the demo and for piping into other tools. */
public final class JsonLinesNotifier implements Notifier {

    private final PrintStream out;

    public JsonLinesNotifier(PrintStream out) {
        this.out = out;
    }

    @Override
    public String name() {
        return "stdout";
    }

    @Override
    public DeliveryResult deliver(Alert alert) {
        // One println per alert under the stream's lock, so lines from concurrent partitions never interleave.
        out.println(AlertJson.toJson(alert));
        out.flush();
        if (out.checkError()) {
            // PrintStream's error flag never clears, so retrying could not succeed.
            return DeliveryResult.permanent("stdout_io", "io", "could not write to the output stream");
        }
        return DeliveryResult.delivered();
    }
}
