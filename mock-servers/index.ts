import { builtinServer } from "./builtin/server.ts";
import { calendarServer } from "./calendar/server.ts";
import { filesystemServer } from "./filesystem/server.ts";
import { githubServer } from "./github/server.ts";
import { createMockServer } from "./kit/server.ts";
import type { ServerSpec } from "./kit/types.ts";
import { labServer } from "./lab/server.ts";
import { notionServer } from "./notion/server.ts";
import { searchServer } from "./search/server.ts";
import { slackServer } from "./slack/server.ts";

/** Every mock server's spec by registry name, in registry order. */
export const mockServerSpecs: Record<string, ServerSpec<unknown>> = Object.fromEntries(
  [
    githubServer,
    slackServer,
    notionServer,
    searchServer,
    calendarServer,
    filesystemServer,
    builtinServer,
    labServer,
  ].map((spec) => [spec.name, spec as ServerSpec<unknown>]),
);

/** In-process factories for the client pool's `memory` transport: the same spec the stdio entry serves. */
export const mockServerFactories = Object.fromEntries(
  Object.entries(mockServerSpecs).map(([name, spec]) => [
    name,
    ({ onCrash }: { onCrash: () => void }) => createMockServer(spec, { onCrash }).server,
  ]),
);
export { registryEntryFor, registryFileText } from "./registry-entries.ts";
