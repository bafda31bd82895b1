/** The stand-in Ollama's public surface: its HTTP server, the models it serves, its behaviours and pacing. */

export { STANDIN_TOKENIZERS, type StandinBehaviour, type StandinTokenizer } from "./behaviour.ts";
export { type Rates, ratesOf } from "./pacing.ts";
export { parseModelList, type ServedModel } from "./served-models.ts";
export { type Standin, type StandinStatsReport, startStandin } from "./server.ts";
