/** Writes mock-servers/registry.json from the server specs (a test fails when the two drift apart). */
import { writeFileSync } from "node:fs";
import { mockServerSpecs } from "../mock-servers/index.ts";
import { registryEntryFor, registryFileText } from "../mock-servers/registry-entries.ts";

const file = new URL("../mock-servers/registry.json", import.meta.url).pathname;
const registry = { servers: Object.values(mockServerSpecs).map(registryEntryFor) };
writeFileSync(file, registryFileText(registry));
process.stderr.write(`wrote ${file}: ${registry.servers.length} servers\n`);
