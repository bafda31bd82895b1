import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { primaryCalendar } from "../calendars.ts";
import type { CalendarState } from "../state.ts";

export const manageAccounts: ToolSpec<CalendarState> = {
  name: "manage-accounts",
  description:
    "Manage Google account authentication. Actions: 'list' (show accounts), 'add' (authenticate new account), 'remove' (remove account).",
  inputSchema: {
    type: "object",
    properties: {
      action: { type: "string", enum: ["list", "add", "remove"], description: "Action to perform" },
      account_id: {
        type: "string",
        pattern: "^[a-z0-9_-]{1,64}$",
        description: "Account nickname (e.g., 'work', 'personal'). Required for 'add' and 'remove'.",
      },
    },
    required: ["action"],
  },
  outputSchema: {
    type: "object",
    properties: {
      accounts: { type: "array", items: { type: "object", required: ["account_id", "status"] } },
      total_accounts: { type: "integer" },
      message: { type: "string" },
    },
    required: ["accounts", "total_accounts"],
  },
  annotations: { title: "Manage accounts", readOnlyHint: false, destructiveHint: true },
  handler: (args, { state }) => {
    const action = String(args.action);
    const primary = primaryCalendar(state);
    if (action === "add") {
      throw new ToolError(
        "unavailable",
        "Adding an account needs an interactive Google sign-in, which is not available in this environment.",
      );
    }
    if (action === "remove") {
      const id = String(args.account_id ?? "");
      if (id !== state.account.id)
        throw new ToolError(
          "account_not_found",
          `Account "${id}" is not connected. Available accounts: ${state.account.id}`,
        );
      throw new ToolError("refused", `Cannot remove "${id}": it is the only connected account.`);
    }
    return {
      accounts: [
        {
          account_id: state.account.id,
          status: "active",
          email: state.account.email,
          calendar_count: state.calendars.length,
          primary_calendar: { id: primary.id, name: primary.summary, timezone: primary.timeZone },
        },
      ],
      total_accounts: 1,
      message: "1 account connected",
    };
  },
};
