/** Builders shared by the agent's unit tests. */

import { type Script, ScriptedModel } from "../../models/scripted.ts";
import type { ToolDefinition, ToolHost } from "../../tool-protocol/types.ts";
import { RunRecorder } from "../recorder.ts";
import { ToolRunner } from "../tool-runner.ts";
import { WriteGuard } from "../write-guard.ts";

export interface TestRig {
  model: ScriptedModel;
  recorder: RunRecorder;
  runner: ToolRunner;
  guard: WriteGuard;
}

/** A recorder, a runner with a write guard, and a scripted model over the given host. */
export function testRig(
  host: ToolHost,
  script: Script = {},
  tools: readonly ToolDefinition[] = host.listTools(),
): TestRig {
  const model = new ScriptedModel(script);
  const recorder = new RunRecorder(model, new AbortController().signal, () => "test");
  const guard = new WriteGuard(tools);
  const runner = new ToolRunner({ host, tools, recorder, guard, timeoutMs: 1000 });
  return { model, recorder, runner, guard };
}
