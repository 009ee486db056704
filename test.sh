#!/usr/bin/env bash
# Runs every test of every module in the repository, with the race detector.
# Long stress and fuzz runs are off unless LADYBUG_STRESS=1 is set.
set -euo pipefail
cd "$(dirname "$0")"
status=0
for mod in $(find . -name go.mod -not -path './.git/*' -printf '%h\n' | sort); do
  echo "=== go test -race ./... in ${mod}"
  (cd "$mod" && go test -race -count=1 -timeout 20m ./...) || status=1
done
# The factorized block checks (build tag invariants) over the package's own
# tests and the engine's SQL tests that drive it: a short run, under a minute.
echo "=== go test -tags invariants ./factorized ./engine/exec ./engine"
go test -tags invariants -count=1 -timeout 5m ./factorized ./engine/exec ./engine || status=1
# The cold-statement benchmarks (one-off SELECTs and writes against SQLite)
# and the multi-way join example, once each on a small corpus: the short
# form that keeps them running; their ratios come from full runs
# (BENCHMARKS.md).
echo "=== go test -bench 'Corpus_OneOff|JoinGen_IssueExample' -benchtime 1x (conformance, short form)"
(cd conformance && LADYBUG_CORPUS_N=200 go test -run '^$' -bench 'Corpus_OneOff|JoinGen_IssueExample' -benchtime 1x -count=1 .) || status=1
exit $status
