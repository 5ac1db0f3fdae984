package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompactRowsTest {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String[] COLUMNS = {"id", "seen", "count", "p99", "rate", "ok", "note", "tree"};

    @Test
    void rowsReadBackAsTheSameValues() {
        ObjectNode a = JSON.objectNode().put("id", "i-1").put("seen", 1_772_546_901_652L).put("count", -3).put("p99", Float.NaN)
                .put("rate", 0.1).put("ok", true);
        a.putNull("note");
        a.putObject("tree").put("x", 1);
        String histogram = java.util.Base64.getEncoder().encodeToString(new byte[] {28, -124, -109, 19, 0, 0, 0, 7, 1});
        ObjectNode b = JSON.objectNode().put("id", histogram).put("seen", 1_772_546_901_650L).put("count", Long.MIN_VALUE)
                .put("p99", 12f).put("rate", -0.0).put("note", "x");

        List<ObjectNode> back = CompactRows.decode(CompactRows.encode(List.of(a, b), COLUMNS), COLUMNS);

        assertThat(back).hasSize(2);
        assertThat(back.get(0).toString()).isEqualTo(a.toString());
        assertThat(back.get(1).toString()).isEqualTo(b.toString());
        assertThat(back.get(1).get("p99").isFloat()).as("a float stays a float").isTrue();
        assertThat(Double.doubleToRawLongBits(back.get(1).get("rate").doubleValue())).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void aTimestampNextToAnotherAndARepeatedNameTakeAFewBytes() {
        ObjectNode a = JSON.objectNode().put("id", "us-east-1a").put("seen", 1_772_546_901_652L);
        ObjectNode b = JSON.objectNode().put("id", "us-east-1a").put("seen", 1_772_546_901_660L);
        int one = CompactRows.encode(List.of(a), COLUMNS).length;
        int two = CompactRows.encode(List.of(a, b), COLUMNS).length;
        assertThat(two - one).isLessThanOrEqualTo(COLUMNS.length + 2);
    }

    @Test
    void textThatIsNearlyBase64ReadsBackAsWritten() {
        String base64 = java.util.Base64.getEncoder().encodeToString("a target id".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        List<String> texts = List.of("10.0.17.201", "i-0abc1234def56789", "fleet-tg-1995", base64, base64.replace('=', 'A'),
                "QUJD=A==", "QUJDRA=A", "QUJDRA==", "AAAA AAA", "AAAA\nAAA", "QUJDRA=" + "=", "+/+/+/+/", "abc");
        List<ObjectNode> rows = texts.stream().map(t -> JSON.objectNode().put("id", t)).toList();

        List<ObjectNode> back = CompactRows.decode(CompactRows.encode(rows, COLUMNS), COLUMNS);

        assertThat(back.stream().map(r -> r.get("id").textValue()).toList()).isEqualTo(texts);
    }

    @Test
    void aFieldWithoutAColumnIsRefusedRatherThanDropped() {
        ObjectNode row = JSON.objectNode().put("id", "i-1").put("future", 3);
        assertThatThrownBy(() -> CompactRows.encode(List.of(row), COLUMNS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("future");
    }
}
