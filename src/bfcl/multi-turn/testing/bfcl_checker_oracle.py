"""The checker-agreement test's oracle: BFCL's own multi_turn_checker on decoded fixtures.

Usage: python3 bfcl_checker_oracle.py <bfcl v4 python dir> <dataset file> <answer file> < fixtures.jsonl

Each fixture line is {"fixture": name, "id": entry id, "decoded": per turn, per step, call texts};
each output line is {"fixture", "valid", "error_type", "error_message"} from BFCL's checker. Every
fixture runs under its own model name, so BFCL's cached instances never carry over between fixtures.
This file imports BFCL's code; it copies none.
"""

import json
import sys


def main():
    python_dir, dataset_file, answer_file = sys.argv[1:4]
    sys.path.insert(0, python_dir)
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker

    with open(answer_file) as f:
        answers = {e["id"]: e["ground_truth"] for e in map(json.loads, f)}
    with open(dataset_file) as f:
        entries = {e["id"]: e for e in map(json.loads, f)}
    for n, line in enumerate(sys.stdin):
        fixture = json.loads(line)
        entry = entries[fixture["id"]]
        verdict = multi_turn_checker(
            fixture["decoded"], answers[fixture["id"]], entry, entry["id"].rsplit("_", 1)[0], f"fixture{n}"
        )
        print(
            json.dumps(
                {
                    "fixture": fixture["fixture"],
                    "valid": verdict["valid"],
                    "error_type": verdict.get("error_type"),
                    "error_message": verdict.get("error_message"),
                }
            )
        )


if __name__ == "__main__":
    main()
