#!/usr/bin/env bash
# A streaming standby (hot, read-only) of the local PostgreSQL, for the replica tests: taken with
# pg_basebackup -R from the installed packages and started with pg_ctl on its own port. Idempotent:
# a standby already streaming is left alone, a stopped one is started, one that cannot stream (its
# WAL is gone from the primary) is taken again. Prints the standby's URL (REPLICA_DATABASE_URL).
# Runs as root (CI) or as the postgres user; the primary must accept local trust connections.
set -euo pipefail

PRIMARY_PORT="${PRIMARY_PORT:-5432}"
PORT="${STANDBY_PORT:-5433}"
DATA="${STANDBY_DATA:-/var/lib/postgresql/standby-$PORT}"
BIN="/usr/lib/postgresql/$(ls /etc/postgresql | sort -V | tail -1)/bin"
primary() { psql -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -Atqc "$1"; }
standby() { psql -h 127.0.0.1 -p "$PORT" -U postgres -Atqc "$1" 2>/dev/null; }
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
url="postgres://postgres@127.0.0.1:$PORT/postgres"

streaming() {
  for _ in $(seq 1 "${1:-1}"); do
    [ "$(standby "select status from pg_stat_wal_receiver")" = streaming ] && return 0
    sleep 1
  done
  return 1
}

running=false
if pg_isready -h 127.0.0.1 -p "$PORT" -q && [ "$(standby 'select pg_is_in_recovery()')" = t ]; then
  running=true
  if streaming 5; then
    echo "$url"
    exit 0
  fi
fi

# pg_hba's "all" does not cover replication connections.
hba="$(primary 'show hba_file')"
if ! grep -Eq '^[[:space:]]*host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
  echo 'host replication all 127.0.0.1/32 trust' >> "$hba"
  primary 'select pg_reload_conf()' > /dev/null
fi

# WAL the primary keeps for a standby that was stopped a moment (the tests stop it): without it, a
# busy primary (every CREATE DATABASE writes the whole template to WAL) recycles the segment the
# standby needs next within seconds, and the standby never streams again. No replication slot:
# a slot left by a standby that is gone would hold WAL without bound.
if [ "$(primary "select setting::bigint < 1024 from pg_settings where name = 'wal_keep_size'")" = t ]; then
  primary "alter system set wal_keep_size = '1GB'" > /dev/null
  primary 'select pg_reload_conf()' > /dev/null
fi

# A stopped standby is started; one that runs but cannot stream (the WAL it needs is gone) is taken again.
if [ "$running" = false ] && [ -f "$DATA/standby.signal" ]; then
  as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 30 start > /dev/null || true
  if streaming 10; then
    echo "$url"
    exit 0
  fi
fi
if [ -f "$DATA/standby.signal" ]; then
  as_postgres "$BIN/pg_ctl" -D "$DATA" -m immediate stop > /dev/null 2>&1 || true
fi

rm -rf "$DATA"
mkdir -p "$DATA"
chown postgres:postgres "$DATA" 2> /dev/null || true
chmod 700 "$DATA"
as_postgres pg_basebackup -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DATA" -R -X stream --checkpoint=fast
# Debian keeps the configuration outside the data directory: the standby gets its own. A hot
# standby needs these settings at least as high as the primary's.
{
  echo "port = $PORT"
  echo "listen_addresses = '127.0.0.1'"
  echo "hot_standby = on"
  echo "hba_file = '$DATA/pg_hba.conf'"
  for name in max_connections max_worker_processes max_prepared_transactions max_locks_per_transaction max_wal_senders; do
    echo "$name = $(primary "show $name")"
  done
} | as_postgres tee "$DATA/postgresql.conf" > /dev/null
printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' | as_postgres tee "$DATA/pg_hba.conf" > /dev/null
as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 start > /dev/null
streaming 30 || { echo "the standby on port $PORT does not stream; see $DATA/server.log" >&2; exit 1; }
echo "$url"
