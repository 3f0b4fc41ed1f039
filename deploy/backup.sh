#!/bin/sh
# Back up Companion's PostgreSQL database into one file (pg_dump's custom format).
#
#   deploy/backup.sh DATABASE_URL [FILE]
#
# DATABASE_URL is the one `companion serve --db` takes (postgresql+psycopg://... is accepted);
# FILE defaults to companion-YYYYmmdd-HHMMSS.dump in the current directory. The dump is
# consistent (one snapshot) while the server keeps running.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 DATABASE_URL [FILE]" >&2
    exit 2
fi
url=$(printf '%s' "$1" | sed 's|^postgresql+psycopg://|postgresql://|; s|^postgres://|postgresql://|')
file=${2:-companion-$(date -u +%Y%m%d-%H%M%S).dump}
pg_dump --format=custom --no-owner --no-privileges --file="$file" "$url"
echo "$file"
