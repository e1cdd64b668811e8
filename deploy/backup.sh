#!/bin/sh
# PostgreSQL backups (docker-compose.yml's `backup` service; README "Backups").
#
#   DATABASE_URL=postgres://... sh deploy/backup.sh          every BACKUP_INTERVAL_HOURS
#   DATABASE_URL=postgres://... sh deploy/backup.sh once     one dump, then exit
#
# Each dump is pg_dump's custom format (compressed; pg_restore reads it), written under
# a temporary name and renamed when complete, so a dump that is there is whole. Dumps
# older than BACKUP_KEEP_DAYS days are deleted after each new one.
set -eu

: "${DATABASE_URL:?set DATABASE_URL to the database to back up}"
dir=${BACKUP_DIR:-/backups}
interval_hours=${BACKUP_INTERVAL_HOURS:-6}
keep_days=${BACKUP_KEEP_DAYS:-14}

dump_once() {
    stamp=$(date -u +%Y%m%d-%H%M%S)
    file="$dir/floorman-$stamp.dump"
    pg_dump --format=custom --no-owner --no-privileges --file="$file.part" "$DATABASE_URL"
    mv "$file.part" "$file"
    find "$dir" -name 'floorman-*.dump' -type f -mtime +"$keep_days" -delete
    echo "backup: $file ($(wc -c <"$file") bytes)"
}

mkdir -p "$dir"
if [ "${1:-}" = "once" ]; then
    dump_once
    exit 0
fi
while true; do
    dump_once || echo "backup: pg_dump failed, trying again at the next interval" >&2
    sleep $((interval_hours * 3600))
done
