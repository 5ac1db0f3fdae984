package io.hcwatch.sink.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.hcwatch.serde.AlertJson;
import io.hcwatch.sink.Alerts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonLinesNotifierTest {

    @Test
    void writesOneAlertJsonLinePerAlert() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonLinesNotifier notifier = new JsonLinesNotifier(new PrintStream(out, false, StandardCharsets.UTF_8));

        assertThat(notifier.deliver(Page.of(Alerts.firing("tg-a")))).isEqualTo(DeliveryResult.delivered());
        assertThat(notifier.deliver(Page.of(Alerts.resolved("tg-a")))).isEqualTo(DeliveryResult.delivered());

        assertThat(out.toString(StandardCharsets.UTF_8).lines())
                .containsExactly(AlertJson.toJson(Alerts.firing("tg-a")), AlertJson.toJson(Alerts.resolved("tg-a")));
    }

    @Test
    void aBrokenOutputIsAPermanentFailureSinceItNeverRecovers() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };

        DeliveryResult result = new JsonLinesNotifier(new PrintStream(broken, false, StandardCharsets.UTF_8))
                .deliver(Page.of(Alerts.firing("tg")));

        assertThat(result).isEqualTo(DeliveryResult.permanent("stdout_io", "io", "could not write to the output stream"));
    }
}
