/** The tool definitions as the scorer uses them: lookup by name, schemas, and which tools write. */

import { type CallSchema, callSchemaOf } from "./arg-match.ts";
import type { ToolView } from "./types.ts";

const NO_PARAMS = { declared: [], required: [] } as const;

export class ToolCatalog {
  private readonly byName: ReadonlyMap<string, ToolView>;
  /** Declared and required parameter names per tool, read once: a run's catalog scores every record. */
  private readonly paramNames = new Map<string, { declared: readonly string[]; required: readonly string[] }>();

  constructor(tools: readonly ToolView[]) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The tool's JSON Schema `inputSchema` (undefined for an unknown tool). */
  inputSchema(name: string): Record<string, unknown> | undefined {
    return this.byName.get(name)?.inputSchema;
  }

  /** The schema as the argument matcher reads it (converted once per schema object). */
  callSchema(name: string): CallSchema | undefined {
    return callSchemaOf(this.inputSchema(name));
  }

  /** Declared parameter names; empty when the schema lists none. */
  params(name: string): readonly string[] {
    return this.paramNamesOf(name).declared;
  }

  required(name: string): readonly string[] {
    return this.paramNamesOf(name).required;
  }

  private paramNamesOf(name: string): { declared: readonly string[]; required: readonly string[] } {
    let names = this.paramNames.get(name);
    // only tools of the catalog are kept: a model can invent any number of names
    if (!names && !this.byName.has(name)) return NO_PARAMS;
    if (!names) {
      const schema = this.callSchema(name);
      names = { declared: Object.keys(schema?.properties ?? {}), required: [...(schema?.required ?? [])] };
      this.paramNames.set(name, names);
    }
    return names;
  }

  /**
   * A tool may change state unless it is annotated read-only, as MCP defines the hints
   * (`readOnlyHint` defaults to false); `destructiveHint: true` always means a write. Unknown tools
   * never reach a server, so they are not writes.
   */
  isWrite(name: string): boolean {
    const tool = this.byName.get(name);
    if (!tool) return false;
    return tool.annotations?.destructiveHint === true || tool.annotations?.readOnlyHint !== true;
  }
}
