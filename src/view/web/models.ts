/**
 * The models a page offers: the simulator's profiles (`sim:<profile>`, always there, no server needed)
 * and the entries of models.yaml the server lists, each once.
 */
import profiles from "../../models/sim/profiles.json" with { type: "json" };
import { getJson } from "./api.ts";
import type { ModelInfo } from "./types.ts";

export async function modelChoices(): Promise<ModelInfo[]> {
  const listed = await getJson<ModelInfo[]>("/models");
  const simulated = Object.keys(profiles.profiles).map((name) => ({
    name: `sim:${name}`,
    provider: "sim",
    simulated: true,
  }));
  return [...simulated.filter((sim) => !listed.some((entry) => entry.name === sim.name)), ...listed];
}
