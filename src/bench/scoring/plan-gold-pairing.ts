/**
 * Which gold call each written plan step answers, and which steps call the wrong tool.
 *
 * - A step of an existing tool that no gold call uses: wrong tool.
 * - A step of a gold tool whose arguments fit a gold call of ANOTHER tool strictly better than any
 *   gold call of its own tool (fit = right values − keys the tool does not take; the other call's
 *   fit also − the values it needs that the step lacks): wrong tool — the model swapped two of the
 *   task's tools. The step names its own tool, so only the other call must show that the step
 *   carries its arguments: values every call of a task shares (`owner`, `repo`) do not turn a
 *   wrong value on the right tool into a swap.
 * - The other steps of a tool are paired with its gold calls best fit first (steps written by
 *   position last, ties: the earlier step); a step left over calls the tool once more than the task needs: wrong tool. A step that
 *   repeats an earlier one takes no gold call and is not a wrong tool (it is a duplicate).
 * Steps of tools that do not exist, and every step of an item without gold calls, get no gold call.
 */

import type { DatasetItem, ExpectedCall } from "../dataset/types.ts";
import { goldFit, lackedParams, type StepArgs } from "./plan-step-args.ts";
import type { ToolCatalog } from "./tool-catalog.ts";

export interface StepPairing {
  gold: ExpectedCall | null;
  wrongTool: boolean;
}

export function pairStepsWithGold(
  steps: readonly StepArgs[],
  duplicate: readonly boolean[],
  item: DatasetItem,
  catalog: ToolCatalog,
): StepPairing[] {
  const pairings: StepPairing[] = steps.map(() => ({ gold: null, wrongTool: false }));
  if (item.calls.length === 0) return pairings;
  const candidates = new Map<string, number[]>();
  steps.forEach((target, index) => {
    const tool = target.step.tool;
    // A repeated step answers nothing new: it takes no gold call (it is classified as a duplicate).
    if (!catalog.has(tool) || duplicate[index]) return;
    const own = item.calls.filter((call) => call.tool === tool);
    const others = item.calls.filter((call) => call.tool !== tool);
    const bestOwn = Math.max(...own.map((call) => goldFit(target, call, catalog)));
    const bestOther = Math.max(...others.map((call) => goldFit(target, call, catalog) - lackedParams(target, call)));
    if (own.length === 0 || bestOther > bestOwn) pairings[index]!.wrongTool = true;
    else candidates.set(tool, [...(candidates.get(tool) ?? []), index]);
  });
  for (const [tool, stepIndexes] of candidates) {
    const gold = item.calls.filter((call) => call.tool === tool);
    const pairs = stepIndexes.flatMap((step) =>
      gold.map((call, goldIndex) => ({
        step,
        goldIndex,
        fit: goldFit(steps[step]!, call, catalog),
        // Positionally written steps fit by guesswork: they take what the named ones leave.
        guessed: steps[step]!.step.positional.length > 0 ? 1 : 0,
      })),
    );
    pairs.sort((a, b) => a.guessed - b.guessed || b.fit - a.fit || a.step - b.step || a.goldIndex - b.goldIndex);
    const usedGold = new Set<number>();
    for (const pair of pairs) {
      if (pairings[pair.step]!.gold !== null || usedGold.has(pair.goldIndex)) continue;
      pairings[pair.step]!.gold = gold[pair.goldIndex]!;
      usedGold.add(pair.goldIndex);
    }
    for (const step of stepIndexes) if (pairings[step]!.gold === null) pairings[step]!.wrongTool = true;
  }
  return pairings;
}
