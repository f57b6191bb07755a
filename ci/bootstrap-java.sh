#!/usr/bin/env bash
# Locate a JDK >= 25 and Maven, then build impl-java (resolving Maven Central dependencies, TLC
# among them, into the user's local repository). Sourced by ./innet; exports JAVA_HOME and JAVA.
#
# Search order for the JDK: $INNET_JAVA_HOME, $JAVA_HOME, the system JVM folder (/usr/lib/jvm/*),
# then `java` on PATH. The first one reporting a feature version >= 25 wins.
set -euo pipefail

INNET_MIN_JAVA=25

innet_java_version() { # prints the feature version of the java binary $1, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1
}

innet_find_jdk() {
  local candidates=()
  [[ -n "${INNET_JAVA_HOME:-}" ]] && candidates+=("$INNET_JAVA_HOME")
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME")
  local d
  for d in /usr/lib/jvm/*; do [[ -d "$d" ]] && candidates+=("$d"); done
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  local home v
  for home in "${candidates[@]}"; do
    [[ -x "$home/bin/java" && -x "$home/bin/javac" ]] || continue
    v="$(innet_java_version "$home/bin/java")"
    if [[ -n "$v" && "$v" -ge "$INNET_MIN_JAVA" ]]; then
      echo "$home"
      return 0
    fi
  done
  return 1
}

innet_bootstrap_java() {
  local home
  if ! home="$(innet_find_jdk)"; then
    echo "innet: error: no JDK >= $INNET_MIN_JAVA found (looked at \$INNET_JAVA_HOME, \$JAVA_HOME, /usr/lib/jvm/*, java on PATH)." >&2
    echo "innet: install one, e.g. Eclipse Temurin 25 (Debian package temurin-25-jdk), or point INNET_JAVA_HOME at it." >&2
    return 1
  fi
  export JAVA_HOME="$home"
  export JAVA="$home/bin/java"
  if ! command -v mvn >/dev/null 2>&1; then
    echo "innet: error: Maven (mvn) not found; install it (Debian: apt-get install maven)." >&2
    return 1
  fi
}

# Build every module (tests skipped) inside the reactor; nothing of ours is installed into ~/.m2, so
# two checkouts never see each other's snapshot jars. Quiet unless it fails.
# Maven resolves dependencies once into ~/.m2; later runs download nothing.
innet_build_java() {
  local log="$INNET_ROOT/.cache/logs/maven-build.log"
  mkdir -p "$(dirname "$log")"
  if ! (cd "$INNET_ROOT/impl-java" && mvn -B -DskipTests package >"$log" 2>&1); then
    echo "innet: error: the Java build failed; last lines of $log:" >&2
    grep -E "ERROR|BUILD" "$log" | head -40 >&2 || tail -40 "$log" >&2
    return 1
  fi
}
