#!/bin/sh
# Restore a dump of deploy/backup.sh into a fresh database (README "Backups").
#
#   DATABASE_URL=postgres://user:pass@host:5432/floorman_restored sh deploy/restore.sh FILE
#   make restore FILE=backups/floorman-20261127-040000.dump   (DATABASE_URL as above)
#
# The database named in DATABASE_URL is created when missing; one that already holds
# tables is refused, so a restore never writes over a live event. Once restored and
# checked, point Floorman's DATABASE_URL at it.
set -eu

file=${1:?usage: restore.sh FILE}
: "${DATABASE_URL:?set DATABASE_URL to the fresh database to restore into}"
[ -f "$file" ] || { echo "restore: no such file: $file" >&2; exit 2; }

# The same server's maintenance database, to create the new one from.
name=$(printf '%s' "$DATABASE_URL" | sed -E 's#^.*/([^/?]+)(\?.*)?$#\1#')
admin_url=$(printf '%s' "$DATABASE_URL" | sed -E 's#/[^/?]+(\?.*)?$#/postgres\1#')
case "$name" in
    *[!A-Za-z0-9_]*|"") echo "restore: use letters, digits and _ in the database name" >&2; exit 2 ;;
esac

exists=$(psql "$admin_url" -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'")
if [ "$exists" = "1" ]; then
    tables=$(psql "$DATABASE_URL" -tAc \
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
    if [ "$tables" != "0" ]; then
        echo "restore: database $name already holds $tables tables; restore into a fresh one" >&2
        exit 3
    fi
else
    psql "$admin_url" -qc "CREATE DATABASE \"$name\""
fi

pg_restore --no-owner --no-privileges --exit-on-error --dbname="$DATABASE_URL" "$file"
echo "restore: $file restored into $name"
