import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../paths.ts";
import { sharedBfclPresent } from "../testing/shared.ts";
import type { MultiTurnEntry } from "./entries.ts";
import { rec } from "./py.ts";
import { callText, createEnvironmentServer } from "./server.ts";

const present = sharedBfclPresent("BFCL v4 environment server test", DEFAULT_BFCL_V4_DATA_DIR);

const entry: MultiTurnEntry = {
  id: "multi_turn_miss_func_7",
  turns: [[], []],
  initialConfig: rec({ TicketAPI: rec({ current_user: "ana" }) }),
  involvedClasses: ["TicketAPI", "MathAPI"],
  excludedFunctions: ["logout"],
  missedFunctions: new Map([[1, ["close_ticket"]]]),
};

describe("callText (BFCL's convert_to_function_call)", () => {
  it("prints FC arguments with Python's repr, comma-joined", () => {
    expect(callText("f", { a: "x", b: [1, true, null], c: { k: 2.5 } })).toBe(
      "f(a='x',b=[1, True, None],c={'k': 2.5})",
    );
  });

  it("writes a whole number as a float where the doc types the parameter float (JSON lost the `.0`)", () => {
    const doc = {
      name: "mean",
      parameters: {
        type: "dict",
        properties: {
          numbers: { type: "array", items: { type: "float" } },
          n: { type: "integer" },
          x: { type: "float" },
        },
      },
    };
    expect(callText("mean", { numbers: [1, 2.5], n: 3, x: 4 }, doc)).toBe("mean(numbers=[1.0, 2.5],n=3,x=4.0)");
  });
});

describe.skipIf(!present)("an entry's environments over MCP", () => {
  it("lists the offered functions, runs calls on the entry's state, offers held-back functions from their turn", async () => {
    const { server, environments, offerTurn } = createEnvironmentServer(entry);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("create_ticket");
      expect(names).toContain("add");
      expect(names).not.toContain("logout");
      expect(names).not.toContain("close_ticket");

      const created = await client.callTool({ name: "create_ticket", arguments: { title: "Printer", priority: 2 } });
      expect(created.content).toEqual([
        {
          type: "text",
          text: '{"id": 1, "title": "Printer", "description": "", "status": "Open", "priority": 2, "created_by": "ana"}',
        },
      ]);
      await expect(client.callTool({ name: "close_ticket", arguments: { ticket_id: 1 } })).rejects.toThrow(
        /Unknown tool/,
      );

      offerTurn(1);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("close_ticket");
      const closed = await client.callTool({ name: "close_ticket", arguments: { ticket_id: 1 } });
      expect(closed.content).toEqual([{ type: "text", text: '{"status": "Ticket 1 has been closed successfully."}' }]);
      expect(environments.canonicalState().TicketAPI).toMatchObject({ ticket_counter: 2 });

      const bad = await client.callTool({ name: "add", arguments: { a: 1 } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
