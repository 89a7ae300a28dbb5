# A throwaway PostgreSQL for end-to-end checks: Debian's server binaries, initdb and
# pg_ctl into a directory of the caller's on a free loopback port (as the `postgres`
# user when run as root, since initdb refuses root). Source it, then:
#   pg_start DIR    sets PG_URL (postgres://mooring@127.0.0.1:PORT/team) and PG_PASSWORD_FILE
#   pg_stop         stops the server (call it from the caller's EXIT trap)
pg_bin=${MOORING_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL server binaries not found: apt-get install postgresql"; exit 1; }
pg_run() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$pg_bin/$1" "${@:2}"; else "$pg_bin/$1" "${@:2}"; fi
}
pg_start() {
  pg_dir=$1
  mkdir -p "$pg_dir"
  PG_PASSWORD_FILE="$pg_dir/password"
  echo "e2e-team-password" >"$PG_PASSWORD_FILE"
  [ "$(id -u)" -eq 0 ] && chown -R postgres:postgres "$pg_dir"
  # The team's role is a plain one owning its database (row security does not apply to a
  # superuser), as a managed database gives a team.
  pg_run initdb -D "$pg_dir/data" -U mooring_admin --auth=scram-sha-256 --pwfile "$PG_PASSWORD_FILE" -E UTF8 --locale=C >/dev/null
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  pg_run pg_ctl -D "$pg_dir/data" -l "$pg_dir/server.log" -w -t 60 \
    -o "-p $port -k $pg_dir -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
  PGPASSWORD=$(cat "$PG_PASSWORD_FILE") "$pg_bin/psql" -q -h 127.0.0.1 -p "$port" -U mooring_admin -d postgres \
    -c "CREATE ROLE mooring LOGIN PASSWORD '$(cat "$PG_PASSWORD_FILE")'"
  PGPASSWORD=$(cat "$PG_PASSWORD_FILE") "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U mooring_admin -O mooring team
  PG_URL="postgres://mooring@127.0.0.1:$port/team?sslmode=disable"
}
pg_stop() {
  [ -n "${pg_dir:-}" ] && pg_run pg_ctl -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
}
