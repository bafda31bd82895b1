import { builtinServer } from "./builtin/index.ts";
import { calendarServer } from "./calendar/index.ts";
import { filesystemServer } from "./filesystem/index.ts";
import { githubServer } from "./github/index.ts";
import { createMockServer, type ServerSpec } from "./kit/index.ts";
import { labServer } from "./lab/index.ts";
import { notionServer } from "./notion/index.ts";
import { searchServer } from "./search/index.ts";
import { slackServer } from "./slack/index.ts";

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
