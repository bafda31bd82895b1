/**
 * The run matrix: models × configurations × items × repeats, in an order that suits real providers
 * (model-major, so Ollama loads each model once; item before configuration, so running task success
 * per configuration compares like with like while the run is under way), and its shards.
 */
import { InputError } from "../../errors.ts";

export interface Task {
  /** `model|config|item|repeat`: unique in a run, the resume and merge key. */
  key: string;
  model: string;
  config: string;
  itemId: string;
  repeat: number;
}

export interface MatrixInput {
  models: readonly string[];
  configs: readonly string[];
  itemIds: readonly string[];
  repeats: number;
}

export function taskKey(model: string, config: string, itemId: string, repeat: number): string {
  return `${model}|${config}|${itemId}|${repeat}`;
}

export function expandMatrix(input: MatrixInput): Task[] {
  const tasks: Task[] = [];
  for (const model of input.models) {
    for (let repeat = 0; repeat < input.repeats; repeat++) {
      for (const itemId of input.itemIds) {
        for (const config of input.configs) {
          tasks.push({ key: taskKey(model, config, itemId, repeat), model, config, itemId, repeat });
        }
      }
    }
  }
  return tasks;
}

export interface Shard {
  /** 1-based, as written on the command line (`--shard 2/4`). */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new InputError("BAD_FLAG", `--shard must be i/n with 1 ≤ i ≤ n (e.g. 2/4), not "${text}"`);
  }
  return { index, count };
}

/**
 * The tasks of one shard: whole items go to one shard (all their configurations and repeats), dealt
 * round-robin in dataset order, so shards are balanced and a merged run pairs configurations per item.
 */
export function selectShard(tasks: readonly Task[], shard: Shard, itemIds: readonly string[]): Task[] {
  const position = new Map(itemIds.map((id, index) => [id, index]));
  return tasks.filter((task) => (position.get(task.itemId) ?? 0) % shard.count === shard.index - 1);
}
