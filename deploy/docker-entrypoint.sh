#!/bin/sh
# hcwatch container entry point. `run` and `sink` default to the config files mounted at /etc/hcwatch.
# The production image (Dockerfile) has one jar per service: run and replay go to the stream app's
# jar, sink to the alert sink's, collect to the collectors'. The tools image (Dockerfile.tools) has
# the whole CLI, hcwatch.jar, and every command (simulate, demo, bench, ...) goes to it as is.
set -eu
dir=/opt/hcwatch
[ "$#" -gt 0 ] || set -- --help

has_config() {
  for arg in "$@"; do
    case "$arg" in --config|--config=*) return 0 ;; esac
  done
  return 1
}

usage() {
  cat <<'USAGE'
Usage: COMMAND [ARGS...]   (COMMAND --help describes one)
  run      the stream processor (default --config /etc/hcwatch/stream-app.properties)
  replay   backtest the detectors on log files; alerts as JSON lines on stdout
  sink     the alert sink (default --config /etc/hcwatch/alert-sink.properties)
  collect  a collector, e.g. collect haproxy --config FILE
The tools (demo, simulate, bench) are in the tools image (Dockerfile.tools).
USAGE
}

case "$1" in
  run)
    shift
    has_config "$@" || set -- --config /etc/hcwatch/stream-app.properties "$@"
    set -- run "$@"
    ;;
  sink)
    shift
    has_config "$@" || set -- --config /etc/hcwatch/alert-sink.properties "$@"
    set -- sink "$@"
    ;;
esac

if [ -f "$dir/hcwatch.jar" ]; then
  jar="$dir/hcwatch.jar"
else
  case "$1" in
    run|replay) jar="$dir/hcwatch-stream-app.jar" ;;
    # the sink's and the collectors' jars are those commands: their arguments follow the jar
    sink) shift; jar="$dir/hcwatch-sink.jar" ;;
    collect) shift; jar="$dir/hcwatch-collect.jar" ;;
    -h|--help|help) usage; exit 0 ;;
    -V|--version) jar="$dir/hcwatch-stream-app.jar" ;;
    *)
      echo "hcwatch: '$1' is not a command of this image (run, replay, sink, collect; the tools are in Dockerfile.tools' image)" >&2
      exit 2
      ;;
  esac
fi
# JAVA_OPTS is split on spaces on purpose (several flags in one variable)
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
