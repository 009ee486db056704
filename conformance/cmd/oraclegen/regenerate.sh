#!/bin/sh
# Regenerates every recorded SQLite answer file that the engine/types and
# engine/funcs tests replay, from the generators in this directory.
# Run from anywhere: sh conformance/cmd/oraclegen/regenerate.sh
set -eu
cd "$(dirname "$0")/../.."          # the conformance module
types=../engine/types/testdata
funcs=../engine/funcs/testdata
g=./cmd/oraclegen
export TZ=UTC
go run $g/operators > $types/oracle_ops.tsv
go run $g/affinity  > $types/oracle_affinity.tsv
go run $g/realtext  > $types/oracle_real_text.tsv
for group in core math printf json match date extra; do
  go run $g/functions $group > $funcs/oracle_$group.tsv
done
go run $g/aggregates > $funcs/oracle_agg.tsv
OUT=$funcs/oracle_json_random.tsv  go run $g/randomjson
OUT=$funcs/oracle_date_random.tsv  go run $g/randomdates
OUT=$funcs/oracle_window.tsv       go run $g/windowframes rows
OUT=$funcs/oracle_window_peers.tsv go run $g/windowframes peers
git -C .. diff --stat -- engine/types/testdata engine/funcs/testdata
