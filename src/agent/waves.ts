/** Groups plan steps into waves with Kahn's topological sort: a wave's steps depend only on earlier waves. */

export interface WaveInput {
  id: string;
  dependsOn: readonly string[];
}

export interface Waves {
  /** Step ids per wave, each wave in plan order. */
  waves: string[][];
  /** Steps on (or behind) a circular reference: they never become ready. */
  cyclic: string[];
}

export function groupIntoWaves(steps: readonly WaveInput[]): Waves {
  const ids = new Set(steps.map((step) => step.id));
  // References to unknown steps are the parser's concern; they do not hold a step back here.
  const pending = new Map(steps.map((step) => [step.id, new Set(step.dependsOn.filter((id) => ids.has(id)))]));
  const waves: string[][] = [];
  for (;;) {
    const ready = [...pending].filter(([, deps]) => deps.size === 0).map(([id]) => id);
    if (ready.length === 0) break;
    waves.push(ready);
    for (const id of ready) pending.delete(id);
    for (const deps of pending.values()) for (const id of ready) deps.delete(id);
  }
  return { waves, cyclic: [...pending.keys()] };
}
