#!/bin/bash
# bench-ingest.sh: client cost of ingesting Query pages: dynotable-cli vs the AWS SDK for
# JavaScript v3 vs the AWS CLI, on the same pages, in one run.  Figures only; nothing asserted.
#
#   tests/bench/bench-ingest.sh [MEGABYTES] [DYNOTABLE_CLI]
#
# A loopback server (fake-pages-server.py) serves about MEGABYTES (default 32) of precomputed
# DynamoDB-JSON Query pages of ~1 MB chained by LastEvaluatedKey, so the server costs nothing.
# Each client reads every page of table "bench", then of table "tiny" (one page of 10 items:
# the client's fixed cost: start-up, DescribeTable, …).  For each: user+system CPU seconds and
# peak RSS from /usr/bin/time; "per MB" subtracts the tiny run (marginal cost of a megabyte of
# items).  Clients:
#   dynotable-cli query --quiet  HTTP, CRC32, parse to typed items, a page at a time (the CLI
#                                streams; the app keeps the items: collection-scroll measures it)
#   dynotable-cli query          the same, also writing every item as a DynamoDB-JSON line
#   JS SDK v3 (node)             QueryCommand loop, items kept in an array
#   boto3 (/usr/bin/python3)     client.query loop, items kept in a list
#   AWS CLI (/usr/bin/aws)       dynamodb query (paginates itself), output to /dev/null
#
# After the table, the same figures as `name value unit` lines (ingest.CLIENT.*):
# cpu_s_per_mb and mb_per_cpu_s (marginal), rss_mb_per_mb (marginal), and each client's CPU
# per MB over dynotable-cli's (ingest.CLIENT.cpu_vs_dynotable, e.g. 6.0 = six times the CPU).
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
megabytes=${1:-32}
cli=${2:-${DYNOTABLE_CLI:-}}
if [[ -z "$cli" ]]; then
  for candidate in "$root"/build*/src/cli/dynotable-cli; do
    [[ -x "$candidate" ]] && cli=$candidate && break
  done
fi
[[ -x "$cli" ]] || { echo "bench-ingest: no dynotable-cli (give its path)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench-ingest: needs /usr/bin/time (Debian: time)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dyno-bench-ingest.XXXXXX") || exit 1
server_pid=
cleanup () {
  [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# A clean, dummy AWS environment: never a user's real credentials or config.
: >"$work/config"
: >"$work/credentials"
export AWS_CONFIG_FILE="$work/config" AWS_SHARED_CREDENTIALS_FILE="$work/credentials"
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
export AWS_DEFAULT_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true AWS_PAGER=
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL

/usr/bin/python3 "$here/fake-pages-server.py" "$megabytes" >"$work/server.out" &
server_pid=$!
for _ in $(seq 600); do
  [[ -s "$work/server.out" ]] && break
  sleep 0.1
done
if ! read -r port bytes n_items <"$work/server.out"; then
  echo "bench-ingest: the page server did not start" >&2
  exit 1
fi
endpoint="http://127.0.0.1:$port"
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1048576 }')
echo "bench-ingest: $mb MB of Query pages ($n_items items) at $endpoint"

# measure NAME TABLE CMD…: "user+sys seconds" and "max RSS KB" of CMD.
measure () {
  local table=$1; shift
  local out="$work/time.$RANDOM"
  /usr/bin/time -f "%U %S %M" -o "$out" "$@" >/dev/null 2>"$work/stderr" || {
    echo "bench-ingest: failed: $*" >&2
    tail -n 5 "$work/stderr" >&2
    echo "nan nan"
    return
  }
  awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$out"
}

run_client () {
  local name=$1 label=$2; shift 2
  local big tiny
  # "@TABLE@" in the command is replaced by the table name.
  big=$(measure bench "${@//@TABLE@/bench}")
  tiny=$(measure tiny "${@//@TABLE@/tiny}")
  awk -v label="$label" -v big="$big" -v tiny="$tiny" -v mb="$mb" 'BEGIN {
    split(big, b, " "); split(tiny, t, " ");
    printf "%-34s %8.2f %8.2f %10.3f %10.0f %10.0f %10.2f\n", label, b[1], t[1],
           (b[1] - t[1]) / mb, b[2] / 1024, t[2] / 1024, (b[2] - t[2]) / 1024 / mb }'
  # for the `name value unit` lines at the end: NAME CPU_S_PER_MB RSS_MB_PER_MB
  awk -v name="$name" -v big="$big" -v tiny="$tiny" -v mb="$mb" 'BEGIN {
    split(big, b, " "); split(tiny, t, " ");
    printf "%s %.6f %.4f\n", name, (b[1] - t[1]) / mb, (b[2] - t[2]) / 1024 / mb }' \
    >>"$work/figures"
}

key='pk = "USER#42"'
printf "\n%-34s %8s %8s %10s %10s %10s %10s\n" "client" "cpu s" "cpu s" "cpu s/MB" "RSS MB" \
       "RSS MB" "RSS MB/MB"
printf "%-34s %8s %8s %10s %10s %10s %10s\n" "" "(all)" "(tiny)" "(marginal)" "(all)" "(tiny)" \
       "(marginal)"
run_client dynotable_cli "dynotable-cli query --quiet" "$cli" --endpoint-url "$endpoint" \
  query @TABLE@ \
  --key "$key" --quiet
run_client dynotable_cli_json_lines "dynotable-cli query (JSON lines)" "$cli" \
  --endpoint-url "$endpoint" query @TABLE@ \
  --key "$key"
if command -v node >/dev/null && [[ -d "$root/tests/node_modules/@aws-sdk/client-dynamodb" ]]; then
  run_client js_sdk_v3 "AWS SDK for JavaScript v3 (node)" node "$here/ingest-js-sdk.mjs" \
    "$endpoint" @TABLE@
else
  echo "(no node or tests/node_modules/@aws-sdk/client-dynamodb: JS SDK skipped)"
fi
if /usr/bin/python3 -c "import boto3" 2>/dev/null; then
  run_client boto3 "boto3 (/usr/bin/python3)" /usr/bin/python3 "$here/ingest-boto3.py" \
    "$endpoint" @TABLE@
else
  echo "(no boto3 for /usr/bin/python3: boto3 skipped)"
fi
if [[ -x /usr/bin/aws ]]; then
  run_client aws_cli "AWS CLI (/usr/bin/aws)" /usr/bin/aws dynamodb query --endpoint-url "$endpoint" \
    --table-name @TABLE@ --key-condition-expression "pk = :pk" \
    --expression-attribute-values '{":pk":{"S":"USER#42"}}' --output json
else
  echo "(no /usr/bin/aws: AWS CLI skipped)"
fi
stall=$("$cli" --endpoint-url "$endpoint" query bench --key "$key" --quiet --stats 2>&1 |
        sed -n 's/^longest main-loop stall: //p')
echo
echo "dynotable-cli: longest main-loop stall while the pages arrived: ${stall:-?}" \
     "(load average: $(cut -d' ' -f1-3 /proc/loadavg); other processes inflate it)"
echo "cpu = user + system seconds of the client process; RSS = its peak resident set."
echo "marginal = (bench run - tiny run) / $mb MB of DynamoDB JSON."
echo
awk 'NR == 1 { base = $2 }
     { printf "ingest.%s.cpu_s_per_mb %.4f s/MB\n", $1, $2;
       if ($2 > 0) printf "ingest.%s.mb_per_cpu_s %.1f MB/s\n", $1, 1 / $2;
       printf "ingest.%s.rss_mb_per_mb %.2f MB/MB\n", $1, $3;
       if (NR > 1 && base > 0) printf "ingest.%s.cpu_vs_dynotable %.2f x\n", $1, $2 / base }' \
  "$work/figures"
