package io.hcwatch.sink.notify;

import io.hcwatch.avro.v1.Alert;
import io.hcwatch.avro.v1.Incident;
import io.hcwatch.serde.AlertJson;
import io.hcwatch.serde.IncidentJson;
import java.io.PrintStream;

/** Writes each page as one line, {@link IncidentJson} or {@link AlertJson}, for the demo and for piping into other tools. */
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
    public DeliveryResult deliver(Page page) {
        String line = page.accept(new Page.Cases<>() {
            @Override
            public String alert(Alert alert) {
                return AlertJson.toJson(alert);
            }

            @Override
            public String incident(Incident incident) {
                return IncidentJson.toJson(incident);
            }
        });
        // One println per page under the stream's lock, so lines from concurrent partitions never interleave.
        out.println(line);
        out.flush();
        if (out.checkError()) {
            // PrintStream's error flag never clears, so retrying could not succeed.
            return DeliveryResult.permanent("stdout_io", "io", "could not write to the output stream");
        }
        return DeliveryResult.delivered();
    }
}
