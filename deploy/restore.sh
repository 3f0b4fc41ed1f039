#!/bin/sh
# Restore a backup made by deploy/backup.sh into an empty PostgreSQL database, in one
# transaction (all or nothing), then check that the ledger reads back.
#
#   deploy/restore.sh FILE DATABASE_URL
#
# Create the database first (createdb, or CREATE DATABASE); stop the servers that use it, or
# point them at it only after the restore. Prints the number of tables and entries restored.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 FILE DATABASE_URL" >&2
    exit 2
fi
file=$1
url=$(printf '%s' "$2" | sed 's|^postgresql+psycopg://|postgresql://|; s|^postgres://|postgresql://|')
pg_restore --exit-on-error --single-transaction --no-owner --no-privileges --dbname="$url" "$file"
psql --no-psqlrc --quiet --tuples-only --no-align --dbname="$url" --command \
    "SELECT (SELECT count(*) FROM ledger_tables) || ' tables, ' || (SELECT count(*) FROM ledger_events) || ' entries restored'"
