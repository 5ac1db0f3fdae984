#!/bin/sh
# hcwatch container entry point: `run` and `sink` default to the config files mounted at
# /etc/hcwatch; any other command (simulate, replay, --help, --version) goes to the CLI as is.
set -eu
jar=/opt/hcwatch/hcwatch.jar
[ "$#" -gt 0 ] || set -- --help

has_config() {
  for arg in "$@"; do
    case "$arg" in --config|--config=*) return 0 ;; esac
  done
  return 1
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
# JAVA_OPTS is split on spaces on purpose (several flags in one variable)
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -jar "$jar" "$@"
