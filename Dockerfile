# hcwatch image: the shaded CLI jar on a JRE. Build the jar first, then the image:
#   mvn -B -DskipTests package -pl tools -am && docker build -t hcwatch:dev .
# Commands: `run` (stream app), `sink` (alert sink), `simulate`, `replay`; see deploy/docker-entrypoint.sh.
FROM eclipse-temurin:17-jre

RUN groupadd --system hcwatch \
 && useradd --system --gid hcwatch --home-dir /var/lib/hcwatch --shell /usr/sbin/nologin hcwatch \
 && mkdir -p /opt/hcwatch /etc/hcwatch /var/lib/hcwatch/state \
 && chown -R hcwatch:hcwatch /var/lib/hcwatch

COPY tools/target/hcwatch.jar /opt/hcwatch/hcwatch.jar
COPY deploy/docker-entrypoint.sh /opt/hcwatch/docker-entrypoint.sh

# container-aware heap; die on OOM so the orchestrator restarts a clean process
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"
USER hcwatch
WORKDIR /var/lib/hcwatch
# 9403: stream app /metrics /health /ready; 9404: alert sink
EXPOSE 9403 9404
ENTRYPOINT ["/opt/hcwatch/docker-entrypoint.sh"]
CMD ["--help"]
