/**
 * The exported agent (`agent.mjs`, bundled by script.ts with everything it uses): runs the agent file
 * beside it against its model and servers.
 *   node agent.mjs "<query>" [--json] [--dry-run] [--agent-file FILE]
 *   node agent.mjs --serve [--port N] [--host H]   (GET /health, POST /run; PORT and AGENT_HOST also set them)
 * Exit codes as the CLI's: 0 ok, 1 the run failed, 2 bad usage or a bad agent file.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { readAgentFile } from "../config/agent-file.ts";
import { InputError } from "../errors.ts";
import { openAgent } from "./exported-agent.ts";
import { serveAgent } from "./serve-agent.ts";

const USAGE =
  'usage: node agent.mjs "<query>" [--json] [--dry-run] [--agent-file FILE] | node agent.mjs --serve [--port N] [--host H]';

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const file = resolve(values["agent-file"] ?? join(dirname(fileURLToPath(import.meta.url)), "agent.yaml"));
  const query = positionals.join(" ").trim();
  if (!values.serve && query === "") {
    process.stderr.write(`error: give a query\n${USAGE}\n`);
    return 2;
  }
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`error: --port must be a whole number from 0 to 65535\n${USAGE}\n`);
    return 2;
  }
  const agentFile = readAgentFile(file);
  const agent = await openAgent(agentFile, { file, dryRun: values["dry-run"] === true });
  if (values.serve) {
    const host = values.host ?? process.env.AGENT_HOST ?? "127.0.0.1";
    const server = await serveAgent(agent, { port, host });
    process.stdout.write(
      `agent ${agentFile.model.name} × ${agentFile.config} at ${server.url} (GET /health, POST /run)\n`,
    );
    await new Promise<void>((done) => {
      process.once("SIGINT", done);
      process.once("SIGTERM", done);
    });
    await server.close();
    await agent.close();
    return 0;
  }
  try {
    const result = await agent.run(query);
    const text = (output: string) => agent.redactor.text(output);
    process.stdout.write(text(values.json ? `${JSON.stringify(result)}\n` : `${result.answer}\n`));
    if (result.error) {
      process.stderr.write(text(`error: the query ended in error in ${result.error.stage}: ${result.error.message}\n`));
      return 1;
    }
    return 0;
  } finally {
    await agent.close();
  }
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "agent-file": { type: "string" },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      serve: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
    },
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof InputError ? 2 : 1;
  },
);
