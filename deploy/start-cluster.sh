#!/usr/bin/env bash
# Start N `roses serve` processes on one PostgreSQL database behind HAProxy, on this machine:
#   deploy/start-cluster.sh postgresql://roses:roses@127.0.0.1:5432/roses [SERVERS] [PORT]
# The servers listen on 127.0.0.1:8001..; HAProxy on 127.0.0.1:PORT (8080) with the
# configuration of deploy/haproxy.cfg written for them. Ctrl-C stops everything.
# On several hosts: run `roses serve --host 0.0.0.0 --port 8001 --db URL` on each, and HAProxy
# with deploy/haproxy.cfg (one `server` line per host) on the balancer.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
db="${1:?usage: deploy/start-cluster.sh DATABASE_URL [SERVERS] [PORT]}"
exec "$here/dev" python -m roses.server.cluster --db "$db" --servers "${2:-3}" --port "${3:-8080}"
