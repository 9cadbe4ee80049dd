#!/usr/bin/env bash
# Seeds 000, 003 and 004 with iomark sweep: 4 KiB random reads on a direct-I/O file over
# iodepth 1..256 with each engine of the seeds (sync, psync, libaio, io_uring, threadpool),
# seed 003's queue model fitted per engine; then the null engine against io_uring on the
# same grid, to tell the software's issue time (Tissue) from the device's (Tdelay).
#
#   examples/sweep/run.sh [DIR] [OUTDIR]     # DIR holds the 1 GiB test file (default .)
#
# Writes OUTDIR/engines.{json,csv,html} and OUTDIR/null-vs-uring.{json,csv,html}, and
# removes the test file at the end. RUNTIME (default 3s) and REPEAT (default 3) set the
# length of each point and its runs. docs/sweep.md shows what one machine measured.
set -euo pipefail
IOMARK=${IOMARK:-iomark}
dir=$(cd "${1:-.}" && pwd)
out=$(mkdir -p "${2:-sweep-out}" && cd "${2:-sweep-out}" && pwd)
file=$dir/iomark-sweep.dat
trap 'rm -f "$file"' EXIT
common=(--name=randread --filename="$file" --size=1g --direct=1 --rw=randread --bs=4k
        --runtime="${RUNTIME:-3s}" --ramp_time=1s --repeat="${REPEAT:-3}")
"$IOMARK" sweep "${common[@]}" --ioengine=sync,psync,libaio,io_uring,threadpool \
    --iodepth=1,2,4..256 --json="$out/engines.json" --csv="$out/engines.csv" \
    --html="$out/engines.html"
"$IOMARK" sweep "${common[@]}" --ioengine=null,io_uring --iodepth=1,2,4..256 \
    --json="$out/null-vs-uring.json" --csv="$out/null-vs-uring.csv" \
    --html="$out/null-vs-uring.html"
echo "$out/engines.html $out/null-vs-uring.html"
