#!/usr/bin/env bash
# Regenerates the calibration report (SIMULATED numbers) and the gate's baselines:
#   1. runs every simulator profile over the whole dataset with the default matrix (one run per profile),
#   2. keeps each run's run.json, summary.json and per-item outcomes.json under results/calibration/<run-id>/
#      (records.jsonl.gz and traces.jsonl.gz, ~20 MB per run, stay in results/<run-id>/, git-ignored),
#   3. writes reports/calibration/ from those folders,
#   4. adds two more simulated reports of sim:slm-3b: reports/plus-ablation/ (the plus-ablation matrix) and
#      reports/repeats/ (onsetlab and onsetlab-plus, 4 repeats: pass^k and pass@k),
#   5. rewrites reports/baselines/calibration.json (all four profiles) and
#      reports/baselines/sim-slm-3b-default.json (what .ci/run gates), keeping their policies.
# Takes 1–3 minutes on 2 cores. Run it after a change to the simulator, the agent, the scorer or the dataset
# moves the numbers on purpose; commit results/calibration/, reports/calibration/ and reports/baselines/.
set -euo pipefail
cd "$(dirname "$0")/.."

run_id() { node -e 'let s="";process.stdin.on("data",(d)=>{s+=d}).on("end",()=>{console.log(JSON.parse(s).runId)})'; }

ids=()
for profile in oracle slm-3b slm-7b chaos; do
  echo "bench sim:$profile …" >&2
  ids+=("$(pnpm -s bench --model "sim:$profile" --matrix default --json | run_id)")
done

# Two more simulated reports from sim:slm-3b: the plus-ablation matrix (onsetlab, then onsetlab with each
# improvement of onsetlab-plus alone, then onsetlab-plus) and both pipelines run 4 times (pass^k, pass@k).
# Run before anything is written, so every run records a clean tree; kept beside the calibration runs.
echo "bench sim:slm-3b --matrix plus-ablation …" >&2
plus_id="$(pnpm -s bench --model sim:slm-3b --matrix plus-ablation --json | run_id)"
echo "bench sim:slm-3b --repeats 4 …" >&2
repeats_id="$(pnpm -s bench --model sim:slm-3b --config onsetlab,onsetlab-plus --repeats 4 --json | run_id)"

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
pnpm -s report "${ids[@]}" --write-outcomes --out "$scratch" --json >/dev/null

rm -rf results/calibration
refs=()
for id in "${ids[@]}"; do
  mkdir -p "results/calibration/$id"
  cp "results/$id/run.json" "results/$id/summary.json" "results/$id/outcomes.json" "results/calibration/$id/"
  refs+=("results/calibration/$id")
done

rm -rf reports/calibration
pnpm -s report "${refs[@]}" --out reports/calibration
for pair in "plus-ablation:$plus_id" "repeats:$repeats_id"; do
  out="${pair%%:*}" id="${pair#*:}"
  pnpm -s report "$id" --write-outcomes --out "$scratch/$out" --json >/dev/null
  mkdir -p "results/calibration/$id"
  cp "results/$id/run.json" "results/$id/summary.json" "results/$id/outcomes.json" "results/calibration/$id/"
  rm -rf "reports/$out"
  pnpm -s report "results/calibration/$id" --out "reports/$out"
done
pnpm -s gate --baseline reports/baselines/calibration.json --run "${refs[@]}" --update
pnpm -s gate --baseline reports/baselines/sim-slm-3b-default.json --run "results/calibration/${ids[1]}" --update
echo "calibration runs: ${ids[*]} (full records in results/<run-id>/)" >&2
