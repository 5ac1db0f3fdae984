# hcwatch production image: one jar per service on a JRE, without the tools (simulator, demo,
# benchmarks, Kafka broker: Dockerfile.tools has those). Build the jars first, then the image:
#   mvn -B -DskipTests package -pl stream-app,alert-sink,collectors -am && docker build -t hcwatch:dev .
# Commands: `run`, `replay` (stream app), `sink` (alert sink), `collect` (collectors); see deploy/docker-entrypoint.sh.
FROM eclipse-temurin:17-jre

RUN groupadd --system hcwatch \
 && useradd --system --gid hcwatch --home-dir /var/lib/hcwatch --shell /usr/sbin/nologin hcwatch \
 && mkdir -p /opt/hcwatch /etc/hcwatch /var/lib/hcwatch/state \
 && chown -R hcwatch:hcwatch /var/lib/hcwatch

COPY stream-app/target/hcwatch-stream-app.jar /opt/hcwatch/hcwatch-stream-app.jar
COPY alert-sink/target/hcwatch-sink.jar /opt/hcwatch/hcwatch-sink.jar
COPY collectors/target/hcwatch-collect.jar /opt/hcwatch/hcwatch-collect.jar
COPY deploy/docker-entrypoint.sh /opt/hcwatch/docker-entrypoint.sh

# container-aware heap; die on OOM so the orchestrator restarts a clean process
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
USER hcwatch
WORKDIR /var/lib/hcwatch
# 9403: stream app /metrics /health /ready; 9404: alert sink
EXPOSE 9403 9404
ENTRYPOINT ["/opt/hcwatch/docker-entrypoint.sh"]
CMD ["--help"]
