/**
 * The gold view the simulator answers from. Structurally a subset of the bench's DatasetItem (the
 * bench passes its items in); defined here because src/models may not import src/bench.
 */

export interface SimGoldItem {
  id: string;
  query: string;
  category: string;
  route: string;
  calls: { tool: string; args: Record<string, unknown> }[];
  order: string;
  answer?: { contains?: string[]; anyOf?: string[]; regex?: string; notContains?: string[] };
  missing?: string[];
  forbidden?: string[];
  /** Servers the right answer uses; decides whether a skill block in the prompt is the item's own. */
  servers?: string[];
}

/** A call as the oracle writes it: every parameter with its gold value, in the dataset's order. */
export interface GoldCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * The dataset's acceptable values → gold values: a list's first alternative that is neither `""` nor a
 * `{regex}` / `{any}` object; a parameter with no such alternative is left out (DatasetItem's contract).
 */
export function goldCalls(item: SimGoldItem): GoldCall[] {
  return item.calls.map((call) => {
    const args: Record<string, unknown> = {};
    for (const [name, acceptable] of Object.entries(call.args)) {
      const alternatives = Array.isArray(acceptable) ? acceptable : [acceptable];
      const gold = alternatives.find((value) => value !== "" && !isMatcher(value));
      if (gold !== undefined) args[name] = gold;
    }
    return { tool: call.tool, args };
  });
}

function isMatcher(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  return (
    keys.length === 1 &&
    ((keys[0] === "any" && record.any === true) || (keys[0] === "regex" && typeof record.regex === "string"))
  );
}

/** Finds the item whose query a prompt contains; the longest query wins when several do. */
export class GoldIndex {
  private readonly byLength: SimGoldItem[];

  constructor(items: readonly SimGoldItem[]) {
    this.byLength = items.filter((item) => item.query.length > 0).sort((a, b) => b.query.length - a.query.length);
  }

  find(text: string): SimGoldItem | undefined {
    return this.byLength.find((item) => text.includes(item.query));
  }
}
