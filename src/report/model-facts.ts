/**
 * The report header's line per real model: what its server said before the first item (run.json's
 * `facts`), the windows its requests got, and the warm-up that loaded it — so a reader can tell which
 * build, quantization and window produced the numbers.
 */
import type { RunModel } from "../bench/run/run-file-types.ts";
import { STANDIN_LABEL } from "./provenance.ts";

export function modelFactsLine(model: RunModel): string | undefined {
  const { facts } = model;
  if (!facts) return undefined;
  const { provenance } = model;
  const server = [
    facts.serverVersion ? `server ${facts.serverVersion}` : undefined,
    provenance.kind === "stand-in" ? `${STANDIN_LABEL}, profile ${provenance.profile}` : undefined,
  ];
  const build = [
    facts.family ? `family ${facts.family}` : undefined,
    facts.parameterSize,
    facts.quantization,
    facts.digest ? `digest ${facts.digest.slice(0, 12)}` : undefined,
  ];
  const window = [
    facts.contextLength === undefined
      ? `context length unknown (${facts.contextSource})`
      : `context length ${facts.contextLength} (${facts.contextSource})`,
    `num_ctx ${facts.numCtx}`,
    model.windowsUsed?.length ? `windows used ${model.windowsUsed.join(", ")}` : undefined,
  ];
  const abilities = [
    facts.capabilities ? `capabilities ${facts.capabilities.join(", ") || "none"}` : undefined,
    facts.think === undefined ? undefined : `thinking ${facts.think ? "on" : "off"} in stage calls`,
    model.warmUp
      ? `warm-up ${Math.round(model.warmUp.totalMs)} ms${model.warmUp.loadMs === undefined ? "" : ` (load ${Math.round(model.warmUp.loadMs)} ms)`}, not scored`
      : undefined,
  ];
  const parts = [...server, ...build, ...window, ...abilities].filter((part) => part !== undefined);
  return `\`${model.name}\`: ${parts.join("; ")}.`;
}
