#!/usr/bin/env bash
# Seed 002 with iomark: seed002.fio on a loop device (made here, removed at the end) under
# each I/O scheduler the device offers, then one report that overlays them:
#
#   sudo examples/seed002/run.sh [OUTDIR]      # OUTDIR/report.html, OUTDIR/SCHED/…
#
# Each scheduler's run leaves its JSON report and its per-I/O latency log (seed002_lat.1.log)
# in OUTDIR/SCHED/; `iomark report OUTDIR/*/` reads each directory as one run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
IOMARK=${IOMARK:-iomark}
out=$(mkdir -p "${1:-seed002-out}" && cd "${1:-seed002-out}" && pwd)
img=$(mktemp /tmp/seed002.XXXXXX.img)
truncate -s 64M "$img"
dev=$(losetup --find --show "$img")
trap 'losetup -d "$dev"; rm -f "$img"' EXIT
queue=/sys/block/${dev#/dev/}/queue/scheduler
for sched in $(tr -d '[]' < "$queue"); do
    echo "$sched" > "$queue"
    mkdir -p "$out/$sched"
    (cd "$out/$sched" && DEV=$dev "$IOMARK" --output-format=json+ "$here/seed002.fio" > seed002.json)
    echo "$sched: done"
done
"$IOMARK" report --title "seed 002: libaio O_DIRECT 512-byte writes per I/O scheduler" \
    -o "$out/report.html" "$out"/*/
echo "$out/report.html"
