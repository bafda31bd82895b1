import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMockServer, type MockServer } from "./server.ts";
import type { FaultConfig, ServerSpec } from "./types.ts";

export interface InMemoryConnection<S> {
  client: Client;
  mock: MockServer<S>;
  close(): Promise<void>;
}

/** A server and a client linked in-process (InMemoryTransport); a crash fault closes the link. */
export async function connectInMemory<S>(spec: ServerSpec<S>, faults?: FaultConfig): Promise<InMemoryConnection<S>> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const mock = createMockServer(spec, {
    faults,
    onCrash: () => {
      void serverTransport.close();
    },
  });
  const client = new Client({ name: "onsetlab-bench", version: "0.1.0" });
  await mock.server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    mock,
    close: async () => {
      await client.close();
      await mock.server.close();
    },
  };
}
