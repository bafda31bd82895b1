/**
 * Tools are declared against the real server's surface (tool-surface.json): the input schema and the
 * read-only flag come from there verbatim, so the mock can never drift from the real parameter names.
 */
import type { JsonSchema, ToolContext, ToolSpec } from "../kit/types.ts";
import type { GithubState } from "./state.ts";
import surface from "./tool-surface.json" with { type: "json" };

interface SurfaceTool {
  name: string;
  readOnly: boolean;
  inputSchema: JsonSchema;
}

const SURFACE_TOOLS = (surface as { tools: SurfaceTool[] }).tools;

function surfaceTool(name: string): SurfaceTool {
  const tool = SURFACE_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`github: ${name} is not a tool of the real server's default surface`);
  return tool;
}

export interface GithubToolDefinition<A> {
  name: string;
  title: string;
  description: string;
  /** Whether the tool deletes or overwrites (write tools only). */
  destructive?: boolean;
  outputSchema: JsonSchema;
  /** Arguments arrive validated against the surface's input schema, so their declared types hold. */
  handler: (args: A, ctx: ToolContext<GithubState>) => unknown;
}

export function githubTool<A>(definition: GithubToolDefinition<A>): ToolSpec<GithubState> {
  const reference = surfaceTool(definition.name);
  if (!reference.readOnly && definition.destructive === undefined) {
    throw new Error(`github: write tool ${definition.name} must say whether it is destructive`);
  }
  return {
    name: definition.name,
    description: definition.description,
    inputSchema: structuredClone(reference.inputSchema),
    outputSchema: definition.outputSchema,
    annotations: {
      title: definition.title,
      readOnlyHint: reference.readOnly,
      ...(reference.readOnly ? {} : { destructiveHint: definition.destructive }),
    },
    handler: (args, ctx) => definition.handler(args as A, ctx),
  };
}

/** The owner/repo pair almost every tool takes. */
export interface RepoArgs {
  owner: string;
  repo: string;
}

export interface PageArgs {
  page?: number;
  perPage?: number;
}
