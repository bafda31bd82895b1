#!/usr/bin/env bash
# Regenerates docs/schemas/ from the TypeScript types of the run files (JSDoc comments become the
# descriptions). ts-json-schema-generator cannot evaluate MetricRates (a type computed from the
# ITEM_METRICS list), so it reads a copy of src/ where that type is spelled out from the list.
set -euo pipefail
cd "$(dirname "$0")/.."
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
cp -r src mock-servers tsconfig.json package.json "$gen"/
ln -s "$PWD/node_modules" "$gen/node_modules"
names=$(pnpm -s exec tsx -e 'import { ITEM_METRICS } from "./src/bench/scoring/metrics.ts";
const names = ITEM_METRICS.flatMap((m) => [m.name, ...("split" in m ? Object.keys(m.split) : [])]);
console.log(names.map((n) => JSON.stringify(n)).join(" | "));')
sed -i "s/^export type MetricRates = .*/export type MetricRates = Record<$names, Rate>;/" "$gen/src/bench/scoring/metrics.ts"
generate() { # file type id
  (cd "$gen" && pnpm -s dlx ts-json-schema-generator@2.10.0 -f tsconfig.json --no-top-ref --no-type-check \
    -p "$1" -t "$2" -i "$3" -o "$OLDPWD/docs/schemas/$3")
}
generate src/bench/run/run-file-types.ts RunManifest run.schema.json
generate src/bench/run/run-file-types.ts StoredRecord record.schema.json
generate src/bench/run/compare-configs.ts RunSummary summary.schema.json
pnpm -s exec biome format --write docs/schemas >/dev/null 2>&1
