#!/usr/bin/env bash
# The whole suite (`npm test`): typecheck, protobuf lint + generated-code check, then every vitest
# suite (vitest discovers **/*.test.ts by itself; see vitest.config.ts). Stops at the first failing step.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n==== %s ====\n' "$*"; }

step "1/3 typecheck (tsc --noEmit)"
npx tsc --noEmit -p tsconfig.json
# The dashboard's browser code (DOM types, Preact JSX).
npx tsc --noEmit -p dashboard/tsconfig.json
echo "typecheck ok"

step "2/3 buf lint and generated code up to date"
npx buf lint
echo "buf lint ok"
# Regenerate into a temporary directory (the working tree is not touched) and compare with gen/.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
npx buf generate -o "$tmp"
# Every plugin output directory from buf.gen.yaml (currently gen/src); buf cleans each before writing,
# so the directory must hold exactly what buf generates.
mapfile -t outs < <(sed -n 's/^[[:space:]]*out:[[:space:]]*\([^#[:space:]]*\).*/\1/p' buf.gen.yaml)
[ "${#outs[@]}" -gt 0 ] || { echo "no 'out:' found in buf.gen.yaml" >&2; exit 1; }
for out in "${outs[@]}"; do
  if ! diff -r "$out" "$tmp/$out"; then
    echo "FAIL: $out differs from what 'buf generate' produces from proto/. Run 'npm run generate' and commit $out." >&2
    exit 1
  fi
done
# Generated code must be committed too. A fresh clone (CI) must be clean; locally, uncommitted work
# in progress is only reported.
dirty="$(git status --porcelain -- gen/ 2>/dev/null || true)"
if [ -n "$dirty" ]; then
  if [ -n "${CI:-}" ]; then
    printf 'FAIL: uncommitted changes under gen/:\n%s\n' "$dirty" >&2
    exit 1
  fi
  printf 'warning: uncommitted changes under gen/ (fails under CI=true):\n%s\n' "$dirty"
fi
echo "generated code ok"

step "3/3 tests (vitest run)"
report="$(mktemp)"
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" || status=$?
# One plain closing line for CI: "N passed, N failed" (plus skipped when any).
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  // The slowest files first: where the time of the suite goes (20 minutes at most on a 2-core machine).
  const files = r.testResults.map((f) => ({ name: f.name.replace(process.cwd() + "/", ""), s: (f.endTime - f.startTime) / 1000 }));
  files.sort((a, b) => b.s - a.s);
  console.log("slowest files: " + files.slice(0, 12).map((f) => `${f.name} ${f.s.toFixed(0)} s`).join(", "));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$report" || echo "0 passed, 1 failed"
rm -f "$report"
exit "$status"
