/**
 * What every multi-turn environment is: a class BFCL names (`TradingBot`…), its public methods with
 * their Python signatures (so a call binds its arguments, and fails, as the Python method would),
 * its starting state loaded from an entry's `initial_config`, and its public state — the
 * non-underscore attributes BFCL's state check compares, in the order Python's `vars()` lists them.
 */

import { type PyDict, PyException, type V } from "./py.ts";

/** A parameter: required unless it has a default (shared across calls, as Python's defaults are). */
export interface Param {
  readonly name: string;
  readonly default?: V;
}

export interface Method {
  readonly params: readonly Param[];
  readonly run: (args: readonly V[]) => V;
}

/** `["a", ["b", 0]]`: a required `a`, and `b` defaulting to 0. */
export type ParamSpec = string | readonly [string, V];

export function method(params: readonly ParamSpec[], run: (args: readonly V[]) => V): Method {
  return {
    params: params.map((p) => (typeof p === "string" ? { name: p } : { name: p[0], default: p[1] })),
    run,
  };
}

export abstract class Environment {
  abstract readonly className: string;
  private table?: ReadonlyMap<string, Method>;

  /** BFCL's `_load_scenario(deepcopy(config), long_context)`; the config is this instance's own. */
  abstract loadScenario(config: PyDict, longContext: boolean): void;

  protected abstract defineMethods(): Record<string, Method>;

  /** Public attributes as `vars(instance)` lists them (underscore ones left out). */
  abstract publicState(): ReadonlyArray<readonly [string, V]>;

  /** The named attributes of this instance with their values (for publicState). */
  protected attributes(names: readonly string[]): [string, V][] {
    return names.map((name) => [name, (this as unknown as Record<string, V>)[name] ?? null]);
  }

  get methods(): ReadonlyMap<string, Method> {
    this.table ??= new Map(Object.entries(this.defineMethods()));
    return this.table;
  }

  /** Binds positional and keyword arguments as Python does, raising its TypeErrors. */
  call(name: string, positional: readonly V[], keywords: ReadonlyArray<readonly [string, V]>): V {
    const m = this.methods.get(name);
    if (!m) throw new PyException("AttributeError", `'${this.className}' object has no attribute '${name}'`);
    const where = `${this.className}.${name}()`;
    const { params } = m;
    if (positional.length > params.length) {
      const required = params.filter((p) => !("default" in p)).length;
      const takes =
        required === params.length ? `${params.length + 1}` : `from ${required + 1} to ${params.length + 1}`;
      const plural = params.length === 0 && required === params.length ? "argument" : "arguments";
      throw new PyException(
        "TypeError",
        `${where} takes ${takes} positional ${plural} but ${positional.length + 1} were given`,
      );
    }
    const bound = new Map<string, V>();
    for (const [i, v] of positional.entries()) bound.set(params[i]!.name, v);
    for (const [k, v] of keywords) {
      if (!params.some((p) => p.name === k))
        throw new PyException("TypeError", `${where} got an unexpected keyword argument '${k}'`);
      if (bound.has(k)) throw new PyException("TypeError", `${where} got multiple values for argument '${k}'`);
      bound.set(k, v);
    }
    const missing = params.filter((p) => !bound.has(p.name) && !("default" in p)).map((p) => `'${p.name}'`);
    if (missing.length > 0) {
      const names =
        missing.length === 1
          ? missing[0]
          : missing.length === 2
            ? `${missing[0]} and ${missing[1]}`
            : `${missing.slice(0, -1).join(", ")}, and ${missing.at(-1)}`;
      const what = missing.length === 1 ? "argument" : "arguments";
      throw new PyException("TypeError", `${where} missing ${missing.length} required positional ${what}: ${names}`);
    }
    return m.run(params.map((p) => (bound.has(p.name) ? bound.get(p.name)! : p.default!)));
  }
}
