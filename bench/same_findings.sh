#!/bin/bash
# Usage: bench/same_findings.sh BASE_BUILD NEW_BUILD [WORK_DIR]
#
# Checks that a change kept every finding: audits one corpus with the
# `canasta` of two builds and compares the outputs byte for byte (text with
# the exit status, and JSON). The corpus: the shipped samples, the scenario
# logs, games simulated under every complete ruleset by sensible and random
# bots, and 400 copies of them with cards changed and lines dropped, doubled
# and swapped (seeded: the same corpus every run). Needs python3.
set -euo pipefail
base=$(realpath "$1"); new=$(realpath "$2")
work=${3:-$(mktemp -d /tmp/same-findings.XXXXXX)}
top=$(cd "$(dirname "$0")/.." && pwd)
corpus=$work/corpus
rm -rf "$corpus" "$work/base" "$work/new" && mkdir -p "$corpus/sim" "$corpus/mut"
cp -r "$top/samples" "$corpus/samples"
cp "$top"/tests/scenarios/*.jsonl "$corpus/samples/"
for r in classic classic-001 hutto jaques jaques-three-handed jaques-two-handed modern-american \
         three-handed tutorial two-handed; do
  "$base/canasta" simulate -r "$r" -n 6 -s 7 -o "$corpus/sim/$r" 2> /dev/null
  "$base/canasta" simulate -r "$r" -n 4 -s 9 -b random -o "$corpus/sim/$r-random" 2> /dev/null
done
python3 - "$corpus" <<'PY'
import glob, random, re, sys
corpus = sys.argv[1]
rng = random.Random(12345)
card = re.compile(r'"([2-9TJQKA][SHDC]|JK)"')
n = 0
for f in sorted(glob.glob(corpus + '/sim/*/*.jsonl')):
    lines = open(f).read().split('\n')
    for _ in range(4):
        ls = list(lines)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(1, max(2, len(ls) - 1))
            op = rng.random()
            if op < 0.5:
                found = list(card.finditer(ls[i]))
                if found:
                    m = rng.choice(found)
                    new = rng.choice(['3H', '3S', '2C', 'JK', 'AS', 'KD', '7H', '9C', 'TD', 'QS', '5D'])
                    ls[i] = ls[i][:m.start(1)] + new + ls[i][m.end(1):]
            elif op < 0.7:
                del ls[i]
            elif op < 0.85:
                ls.insert(i, ls[i])
            else:
                j = rng.randrange(1, max(2, len(ls) - 1))
                ls[i], ls[j] = ls[j], ls[i]
        n += 1
        open('%s/mut/m%05d.jsonl' % (corpus, n), 'w').write('\n'.join(ls))
PY
audit_all() {  # audit_all BUILD OUT
  mkdir -p "$2"
  (cd "$corpus" && find . -name '*.jsonl' | sort | while read -r f; do
    n=$(echo "${f#./}" | tr / _)
    status=0
    "$1/canasta" audit "$f" > "$2/$n.txt" 2>&1 || status=$?
    echo "exit $status" >> "$2/$n.txt"
    "$1/canasta" audit --format json "$f" > "$2/$n.json" 2>&1 || true
  done)
}
audit_all "$base" "$work/base"
audit_all "$new" "$work/new"
logs=$(find "$corpus" -name '*.jsonl' | wc -l)
findings=$(cat "$work"/base/*.txt | grep -cE '\[[a-z-]+\]$' || true)
if diff -r "$work/base" "$work/new" > "$work/diff.txt"; then
  echo "same: $logs logs, $findings findings, text and JSON byte-identical ($work)"
else
  echo "DIFFERENT: $(grep -c '^diff' "$work/diff.txt") outputs differ; see $work/diff.txt"
  exit 1
fi
