#!/usr/bin/env bash
# Same-conditions comparison of two checkouts: for each endpoint, the harness runs against
# BASE (another checkout, e.g. a git worktree of an older commit) and then against this one,
# back to back on the same private cluster, so both sides of a pair share the machine's load.
#   bash bench/tools/ab.sh /path/to/base-checkout [endpoint ...]
# Needs the dataset and the cluster from a previous `npm run bench -- --keep` (scale M).
# JSON of each run goes to bench/results/<date>-ab/<endpoint>-{base,new}.json; a one-line
# summary per run is printed.
set -euo pipefail
BASE=$(cd "$1" && pwd); shift
HERE=$(cd "$(dirname "$0")/../.." && pwd)
ENDPOINTS=("$@")
[ ${#ENDPOINTS[@]} -eq 0 ] && ENDPOINTS=(firmographics products-paged search-product-country cohort competitors metrics-usage metrics-details-5 related products-in-use feed vendors-fuzzy categories mcp exports)
OUT="$HERE/bench/results/$(date +%F)-ab"; mkdir -p "$OUT"
for e in "${ENDPOINTS[@]}"; do
  for side in base new; do
    dir=$BASE; [ $side = new ] && dir=$HERE
    log=$(mktemp)
    (cd "$dir" && npm run bench -- --engine pg --scale M --keep --only "$e" --duration "${DURATION:-5}" >"$log" 2>&1)
    json=$(sed -n 's/^written //p' "$log" | tail -1)
    [ -n "$json" ] && mv "$dir/$json" "$OUT/$e-$side.json"
    echo "$e $side: $(grep -E 'api-key c=50|ceilings|MCP:|rows/s' "$log" | tr -s ' ' | tr '\n' ' ')"
    rm -f "$log"
  done
done
