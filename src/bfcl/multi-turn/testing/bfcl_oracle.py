"""The parity test's oracle: BFCL's own Python environments, driven the way BFCL drives them.

Usage: python3 bfcl_oracle.py <bfcl v4 python dir> <dataset file> <answer file>

For every entry, every turn's ground-truth calls run through BFCL's execute_multi_turn_func_call
(one set of instances per entry, kept across turns); one JSON line per entry gives each call's
result string and, after each turn, every instance's public state in a stable form (the same form
src/bfcl/multi-turn/py.ts `canonical` writes). This file imports BFCL's code; it copies none.
"""

import json
import sys


def canon(v):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, list):
        return [canon(x) for x in v]
    if isinstance(v, tuple):
        return {"t": [canon(x) for x in v]}
    if isinstance(v, set):
        items = [canon(x) for x in v]
        return {"s": sorted(items, key=lambda c: json.dumps(c, separators=(",", ":"), ensure_ascii=False))}
    if isinstance(v, dict):
        return {"d": [[canon(k), canon(x)] for k, x in v.items()]}
    kind = type(v).__name__
    if kind == "File":
        return {"File": [v.name, v.content]}
    if kind == "Directory":
        return {"Dir": [v.name, canon(v.contents)]}
    return {"o": repr(v)}


def main():
    python_dir, dataset_file, answer_file = sys.argv[1:4]
    sys.path.insert(0, python_dir)
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils import execute_multi_turn_func_call

    with open(answer_file) as f:
        answers = {e["id"]: e["ground_truth"] for e in map(json.loads, f)}
    with open(dataset_file) as f:
        entries = [json.loads(line) for line in f]
    out = sys.stdout
    for entry in entries:
        turns = []
        instances = {}
        for calls in answers[entry["id"]]:
            results, instances = execute_multi_turn_func_call(
                func_call_list=calls,
                initial_config=entry["initial_config"],
                involved_classes=entry["involved_classes"],
                model_name="oracle",
                test_entry_id=entry["id"],
                long_context="long_context" in entry["id"],
            )
            state = {
                name: {k: canon(x) for k, x in vars(inst).items() if not k.startswith("_")}
                for name, inst in instances.items()
            }
            turns.append({"results": results, "state": state})
        out.write(json.dumps({"id": entry["id"], "turns": turns}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
