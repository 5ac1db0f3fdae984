package io.hcwatch.topology.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A commit writes every key changed since the previous one, however often or in what order it was marked. */
class WriteBehindStoreTest {

    private final List<Long> written = new ArrayList<>();
    private final WriteBehindStore<String> store = WriteBehindStore.measuring(new StateCodec<>() {
        @Override
        public byte[] encode(String value) {
            return value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String decode(byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }, written::add);

    @Test
    void aKeyMarkedAgainAfterACommitIsWrittenAgain() {
        store.put("clock", "abc");
        store.markChanged("clock");
        store.markChanged("clock");
        commit(1);
        store.markChanged("clock");
        commit(1);
        commit(0);
    }

    @Test
    void aKeyMarkedLastThenDeletedAndPutAgainIsWritten() {
        store.put("held/1", "x");
        commit(1);
        store.put("pending", "p");
        store.markChanged("pending");
        store.delete("pending");
        // written and deleted between two commits: nothing to write
        commit(0);
        store.put("pending", "q");
        store.markChanged("pending");
        commit(1);
    }

    @Test
    void everyKeyMarkedBetweenTwoCommitsIsWrittenOnce() {
        store.put("a", "1");
        store.put("b", "2");
        commit(2);
        store.markChanged("a");
        store.markChanged("b");
        store.markChanged("a");
        store.markChanged("b");
        commit(2);
    }

    private void commit(int keys) {
        written.clear();
        store.flushCache();
        assertThat(written).hasSize(keys);
    }
}
