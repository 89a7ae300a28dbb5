#!/usr/bin/env bash
# Two people's Moorings on one team database: Bob's desktop runs under Xvfb with its own
# session bus, Ada works from the CLI on "another machine" (her own data directory and
# HOME). Bob's tray (read over D-Bus, as a panel would) marks the team project, and shows
# Ada's rename of it within a second, without a restart; her handoff of it raises a
# notification on his desktop.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
chmod 755 "$tmp"
# shellcheck source=lib/postgres.sh
. "$here/lib/postgres.sh"
trap 'pg_stop; rm -rf "$tmp"' EXIT
pg_start "$tmp/pg"
m="$MOORING_BIN/mooring"
export ADA_DATA="$tmp/ada" ADA_HOME="$tmp/ada-home"
# Ada's machine: her own data directory and HOME.
ada() { MOORING_HOME="$ADA_DATA" HOME="$ADA_HOME" "$m" "$@"; }
mkdir -p "$tmp/ada-home" "$tmp/bob-home"
export MOORING_HOME="$tmp/bob" HOME="$tmp/bob-home"
ada team join "$PG_URL" --name Ada --password-file "$PG_PASSWORD_FILE" >/dev/null
"$m" team join "$PG_URL" --name Bob --password-file "$PG_PASSWORD_FILE" >/dev/null
ada team new "Billing" >/dev/null
ada team member billing Bob >/dev/null
"$m" projects new "Scratch" >/dev/null
# Not exec: the EXIT trap must stop PostgreSQL and remove the directory afterwards.
xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- bash "$here/lib/team_tray_session.sh"
