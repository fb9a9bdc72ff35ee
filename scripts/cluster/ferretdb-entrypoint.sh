#!/bin/bash
# The entrypoint of localhost/qm/ferretdb (scripts/provision.sh images, docs/adr/030): FerretDB on a
# PostgreSQL 15 cluster of its own in the data directory, in one container, where the chart runs MongoDB.
# Also installed as `mongod`, so it takes the flags the chart passes mongod: --dbpath, --port,
# --bind_ip_all, --bind_ip (the first address). Writes nothing outside the data directory.
set -euo pipefail
dbpath=/data/db port=27017 host=0.0.0.0
while [ $# -gt 0 ]; do
  case $1 in
    --dbpath) dbpath=$2; shift ;;
    --dbpath=*) dbpath=${1#*=} ;;
    --port) port=$2; shift ;;
    --port=*) port=${1#*=} ;;
    --bind_ip_all) host=0.0.0.0 ;;
    --bind_ip) host=${2%%,*}; shift ;;
    --bind_ip=*) host=${1#*=}; host=${host%%,*} ;;
    *) echo "ferretdb-entrypoint: ignoring $1" >&2 ;;
  esac
  shift
done
pgdata=$dbpath/postgresql
# The first start makes the cluster beside it and moves it in whole: an interrupted one leaves no half cluster.
if [ ! -f "$pgdata/PG_VERSION" ]; then
  rm -rf "$pgdata.init"
  mkdir -m 0700 "$pgdata.init"
  initdb -D "$pgdata.init" -U postgres --auth=trust --encoding=UTF8 --locale=C --no-instructions >/dev/null
  mv "$pgdata.init" "$pgdata"
fi
mkdir -p "$dbpath/ferretdb"
# TCP on loopback only (no socket directory: the root filesystem may be read-only). FerretDB sends
# prepared statements; custom plans use @qm/platform's expression indexes (docs/adr/004), as the local stack.
postgres -D "$pgdata" -c listen_addresses=127.0.0.1 -c port=5432 -c unix_socket_directories= \
  -c plan_cache_mode=force_custom_plan -c jit=off &
pg=$!
# FerretDB connects lazily: it may start beside PostgreSQL. GOGC as the local stack (scripts/stack/plan.mjs).
GOGC=${GOGC:-400} ferretdb --handler=postgresql --postgresql-url=postgres://postgres@127.0.0.1:5432/postgres \
  --listen-addr="$host:$port" --telemetry=disable --state-dir="$dbpath/ferretdb" --debug-addr=- &
fd=$!
# FerretDB first, then PostgreSQL's fast shutdown (SIGINT): a clean checkpoint, no recovery at the next start.
stop() {
  kill -TERM "$fd" 2>/dev/null || true; wait "$fd" 2>/dev/null || true
  kill -INT "$pg" 2>/dev/null || true; wait "$pg" 2>/dev/null || true
}
trap 'stop; exit 0' TERM INT
set +e
wait -n "$pg" "$fd"
status=$?
echo "ferretdb-entrypoint: $(kill -0 "$pg" 2>/dev/null && echo ferretdb || echo postgres) exited ($status)" >&2
stop
exit $((status == 0 ? 1 : status))
