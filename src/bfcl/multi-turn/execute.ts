/**
 * Runs a turn's calls on an entry's environment instances as BFCL's `execute_multi_turn_func_call`
 * does: each call is Python call text (`cd(folder='document')`), evaluated with every public method
 * of the involved instances in scope (a later class's method of the same name wins), and its result
 * printed as BFCL prints it: a str as is, a dict as `json.dumps` (else `str`), anything else `str`.
 * A failure is `Error during execution: <message>`, with Python's message where it is Python's own
 * (an unknown function, a wrong argument, an error raised inside a method).
 */

import type { PyNode } from "../../python/ast.ts";
import { evaluate, PyEvalError } from "../../python/evaluate.ts";
import { parseExpression } from "../../python/parser.ts";
import type { PyValue } from "../../python/value.ts";
import { BfclInputError } from "../errors.ts";
import type { Environment } from "./environment.ts";
import { asDict, canonical, deepCopy, dict, fromPyValue, PyDict, PyException, resultString, type V } from "./py.ts";
import { ENVIRONMENTS, isEnvironmentName, STATELESS } from "./registry.ts";

/** BFCL refuses these names before evaluating (its guard against `exit()` and friends). */
const REFUSED = new Set(["kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run"]);

/** One entry's instances: created from its initial_config, kept across turns. */
export class EnvironmentSet {
  readonly instances: ReadonlyMap<string, Environment>;
  private readonly owners = new Map<string, Environment>();

  constructor(involvedClasses: readonly string[], initialConfig: PyDict, longContext: boolean) {
    const instances = new Map<string, Environment>();
    for (const name of involvedClasses) {
      if (!isEnvironmentName(name))
        throw new BfclInputError(
          "BFCL_UNKNOWN_ENVIRONMENT",
          `unknown environment ${name}: expected one of ${Object.keys(ENVIRONMENTS).join(", ")}`,
          {
            context: { environment: name },
          },
        );
      const instance = ENVIRONMENTS[name].create();
      if (!STATELESS.has(name)) {
        const config = initialConfig.get(name);
        instance.loadScenario(config === undefined ? dict() : deepCopy(asDict(config)), longContext);
      }
      instances.set(name, instance);
      for (const method of instance.methods.keys()) this.owners.set(method, instance);
    }
    this.instances = instances;
  }

  /** The method names in scope (what a model may call). */
  get methodNames(): readonly string[] {
    return [...this.owners.keys()];
  }

  /** Runs each call text in order; one result string per call. */
  execute(calls: readonly string[]): string[] {
    return calls.map((call) => this.executeOne(call));
  }

  executeOne(call: string): string {
    try {
      const refused = refusedName(call, this.owners);
      if (refused !== undefined) throw new PyException("Exception", `Function call ${refused} is not allowed.`);
      let node: PyNode;
      try {
        node = parseExpression(call);
      } catch {
        throw new PyException("SyntaxError", "invalid syntax (<string>, line 1)");
      }
      return resultString(this.evaluate(node));
    } catch (error) {
      if (error instanceof PyException || error instanceof PyEvalError)
        return `Error during execution: ${error.message}`;
      throw error;
    }
  }

  private evaluate(node: PyNode): V {
    if (node.type === "Call") {
      const name = node.func.type === "Name" ? node.func.id : undefined;
      const owner = name === undefined ? undefined : this.owners.get(name);
      if (!owner) {
        const base = baseName(node.func);
        throw new PyException("NameError", `name '${base}' is not defined`);
      }
      const positional = node.args.map((arg) => {
        if (arg.type === "Starred") throw new PyException("TypeError", "argument unpacking is not supported");
        return this.evaluate(arg);
      });
      const keywords = node.keywords.map((kw) => {
        if (kw.arg === null) throw new PyException("TypeError", "keyword unpacking is not supported");
        return [kw.arg, this.evaluate(kw.value)] as const;
      });
      return owner.call(name!, positional, keywords);
    }
    if (node.type === "List") return node.elts.map((e) => this.evaluate(e));
    if (node.type === "Dict" && node.keys.every((k) => k !== null)) {
      return new PyDict(
        node.keys.map((k, i) => [fromPyValue(evaluate(k!)) as string, this.evaluate(node.values[i]!)] as [string, V]),
      );
    }
    return fromPyValue(evaluate(node));
  }

  /** Each instance's public state, in the parity test's stable form. */
  canonicalState(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, instance] of this.instances)
      out[name] = Object.fromEntries(instance.publicState().map(([k, v]) => [k, canonical(v)]));
    return out;
  }
}

function baseName(func: PyNode): string {
  let part = func;
  while (part.type === "Attribute") part = part.value;
  return part.type === "Name" ? part.id : "<expression>";
}

/** BFCL's guard: the text before the first "(", after the instance prefix it adds to known methods. */
function refusedName(call: string, owners: ReadonlyMap<string, Environment>): string | undefined {
  let head = call.includes("(") ? call.split("(")[0]! : call;
  const bare = head.trim();
  if (owners.has(bare)) head = `instance.${bare}`;
  if (head.includes(".")) head = head.split(".")[1]!;
  return REFUSED.has(head) ? head : undefined;
}

export type { PyValue };
