/**
 * A fault front for model-server tests: a proxy in front of the stand-in that returns a share of its tool
 * calls as TEXT, as a server whose chat template did not recognise the model's call format does — the
 * answer's content holds the calls, `tool_calls` is empty. Each rewritten answer takes the next of the
 * five formats small models write (Hermes/Qwen, Llama 3 JSON, Mistral, fenced JSON, pythonic), so every
 * format is exercised; the front counts what it rewrote, per format.
 *
 * Non-streamed chat answers only, and only answers whose calls all name offered tools (`/api/chat`, `/v1/chat/completions`); everything else passes through.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const FRONT_FORMATS = ["hermes", "llama3_json", "mistral", "fenced_json", "pythonic"] as const;
export type FrontFormat = (typeof FRONT_FORMATS)[number];

export interface FrontCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface TextCallFront {
  url: string;
  /** Calls rewritten as text, per format. */
  readonly calls: Record<FrontFormat, number>;
  /** Answers rewritten. */
  readonly answers: number;
  close(): Promise<void>;
}

/** `share`: the fraction of answers with tool calls that are rewritten, chosen by a hash of the request. */
export async function textCallFront(upstream: string, share: number): Promise<TextCallFront> {
  const calls = Object.fromEntries(FRONT_FORMATS.map((format) => [format, 0])) as Record<FrontFormat, number>;
  let answers = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const upstreamAnswer = await fetch(`${upstream}${req.url}`, {
      method: req.method ?? "GET",
      headers: forwardedHeaders(req),
      ...(req.method === "GET" || req.method === "HEAD" ? {} : { body }),
    });
    const text = await upstreamAnswer.text();
    const headers = Object.fromEntries(
      [...upstreamAnswer.headers].filter(([name]) => !["content-length", "content-encoding"].includes(name)),
    );
    const chosen = upstreamAnswer.ok && isChat(req.url, body) && hashShare(body) < share;
    const offered = new Set(chosen ? offeredTools(body) : []);
    const nextFormat = () => FRONT_FORMATS[answers % FRONT_FORMATS.length]!;
    const rewritten = chosen ? rewrite(req.url ?? "", text, offered, nextFormat) : undefined;
    if (rewritten) {
      answers += 1;
      calls[rewritten.format] += rewritten.calls;
    }
    res.writeHead(upstreamAnswer.status, headers).end(rewritten?.body ?? text);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get answers() {
      return answers;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const skip = new Set(["host", "content-length", "connection", "transfer-encoding"]);
  return Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name, value]) => !skip.has(name) && typeof value === "string")
      .map(([name, value]) => [name, value as string]),
  );
}

function isChat(url: string | undefined, body: string): boolean {
  if (url !== "/api/chat" && url !== "/v1/chat/completions") return false;
  try {
    const request = JSON.parse(body) as { stream?: boolean };
    return url === "/api/chat" ? request.stream === false : request.stream !== true;
  } catch {
    return false;
  }
}

/** The request's place in [0, 1): the same request is always rewritten or always not. */
function hashShare(body: string): number {
  return createHash("sha256").update(body).digest().readUInt32BE(0) / 2 ** 32;
}

interface Rewritten {
  body: string;
  format: FrontFormat;
  calls: number;
}

function offeredTools(body: string): string[] {
  const request = JSON.parse(body) as { tools?: { function?: { name?: string } }[] };
  return (request.tools ?? []).flatMap((tool) => (tool.function?.name ? [tool.function.name] : []));
}

/**
 * Only answers whose every call names an offered tool: a call to a name the model was not offered is no
 * call to count (text-calls.ts), so left as text it would end a run the server's parse would continue.
 */
function rewrite(
  url: string,
  text: string,
  offered: ReadonlySet<string>,
  nextFormat: () => FrontFormat,
): Rewritten | undefined {
  const answer = JSON.parse(text) as Record<string, unknown>;
  if (url === "/api/chat") {
    const message = answer.message as { content?: string; tool_calls?: { function: FrontCall }[] };
    const found = (message.tool_calls ?? []).map((call) => call.function);
    if (found.length === 0 || found.some((call) => !offered.has(call.name))) return undefined;
    const format = nextFormat();
    const { tool_calls: _parsed, ...rest } = message;
    const content = withCalls(message.content ?? "", found, format);
    return { body: JSON.stringify({ ...answer, message: { ...rest, content } }), format, calls: found.length };
  }
  const choice = (answer.choices as Record<string, unknown>[])[0]!;
  const message = choice.message as {
    content?: string | null;
    tool_calls?: { function: { name: string; arguments: string } }[];
  };
  const found = (message.tool_calls ?? []).map((call) => ({
    name: call.function.name,
    arguments: JSON.parse(call.function.arguments) as Record<string, unknown>,
  }));
  if (found.length === 0 || found.some((call) => !offered.has(call.name))) return undefined;
  const format = nextFormat();
  const { tool_calls: _parsed, ...rest } = message;
  const content = withCalls(message.content ?? "", found, format);
  const rewrittenChoice = { ...choice, finish_reason: "stop", message: { ...rest, content } };
  return { body: JSON.stringify({ ...answer, choices: [rewrittenChoice] }), format, calls: found.length };
}

/** The answer's own text (if any), then the calls written in the format. */
function withCalls(content: string, calls: readonly FrontCall[], format: FrontFormat): string {
  const written = writeCalls(calls, format);
  return content ? `${content}\n${written}` : written;
}

export function writeCalls(calls: readonly FrontCall[], format: FrontFormat): string {
  const one = calls.length === 1;
  switch (format) {
    case "hermes":
      return calls.map((call) => `<tool_call>\n${JSON.stringify(call)}\n</tool_call>`).join("\n");
    case "llama3_json": {
      const objects = calls.map((call) => ({ name: call.name, parameters: call.arguments }));
      return JSON.stringify(one ? objects[0] : objects);
    }
    case "mistral":
      return `[TOOL_CALLS]${JSON.stringify(calls)}`;
    case "fenced_json":
      return `\`\`\`json\n${JSON.stringify(one ? calls[0] : calls, null, 2)}\n\`\`\``;
    case "pythonic":
      return `[${calls.map(pythonCall).join(", ")}]`;
  }
}

function pythonCall(call: FrontCall): string {
  const args = Object.entries(call.arguments).map(([name, value]) => `${name}=${pythonValue(value)}`);
  return `${call.name}(${args.join(", ")})`;
}

function pythonValue(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonValue).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonValue(item)}`).join(", ")}}`;
}
