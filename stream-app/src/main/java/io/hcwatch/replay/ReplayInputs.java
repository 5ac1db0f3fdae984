package io.hcwatch.replay;

import io.hcwatch.topology.Source;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The files given to replay, per source, in the order given. */
public final class ReplayInputs {

    private final Map<Source, List<Path>> files = new EnumMap<>(Source.class);

    public ReplayInputs add(Source source, Path file) {
        files.computeIfAbsent(source, s -> new ArrayList<>()).add(file);
        return this;
    }

    public Map<Source, List<Path>> files() {
        return files;
    }

    public boolean isEmpty() {
        return files.isEmpty();
    }
}
