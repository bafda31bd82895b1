/** BFCL's TicketAPI: a queue of support tickets and a logged-in user. */

import { Environment, type Method, method } from "../environment.ts";
import { asDict, asList, asStr, dget, eq, getItem, gt, lt, type PyDict, rec, str, truthy, type V } from "../py.ts";

const VALID_FIELDS = ["title", "description", "status", "priority"];

export class TicketAPI extends Environment {
  readonly className = "TicketAPI";
  ticket_queue: V[] = [];
  ticket_counter: V = 1;
  current_user: V = null;

  loadScenario(config: PyDict): void {
    this.ticket_queue = asList(dget(config, "ticket_queue", []));
    this.ticket_counter = dget(config, "ticket_counter", 1);
    this.current_user = dget(config, "current_user", null);
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return this.attributes(["ticket_queue", "ticket_counter", "current_user"]);
  }

  private find(ticketId: V): PyDict | undefined {
    return this.ticket_queue.find((ticket) => eq(getItem(ticket, "id"), ticketId)) as PyDict | undefined;
  }

  protected defineMethods(): Record<string, Method> {
    const notFound = (id: V): PyDict => rec({ error: `Ticket with ID ${str(id)} not found.` });
    return {
      create_ticket: method(["title", ["description", ""], ["priority", 1]], ([title, description, priority]) => {
        if (!truthy(this.current_user))
          return rec({ error: "User not authenticated. Please log in to create a ticket." });
        if (lt(priority!, 1) || gt(priority!, 5))
          return rec({ error: "Invalid priority. Priority must be between 1 and 5." });
        const ticket = rec({
          id: this.ticket_counter,
          title: title!,
          description: description!,
          status: "Open",
          priority: priority!,
          created_by: this.current_user,
        });
        this.ticket_queue.push(ticket);
        this.ticket_counter = (this.ticket_counter as number) + 1;
        return ticket;
      }),
      get_ticket: method(["ticket_id"], ([id]) => this.find(id!) ?? notFound(id!)),
      close_ticket: method(["ticket_id"], ([id]) => {
        const ticket = this.find(id!);
        if (!ticket) return notFound(id!);
        if (ticket.get("status") === "Closed") return rec({ error: `Ticket with ID ${str(id!)} is already closed.` });
        ticket.set("status", "Closed");
        return rec({ status: `Ticket ${str(id!)} has been closed successfully.` });
      }),
      resolve_ticket: method(["ticket_id", "resolution"], ([id, resolution]) => {
        const ticket = this.find(id!);
        if (!ticket) return notFound(id!);
        if (ticket.get("status") === "Resolved")
          return rec({ error: `Ticket with ID ${str(id!)} is already resolved.` });
        ticket.set("status", "Resolved");
        ticket.set("resolution", resolution!);
        return rec({ status: `Ticket ${str(id!)} has been resolved successfully.` });
      }),
      edit_ticket: method(["ticket_id", "updates"], ([id, updatesArg]) => {
        const ticket = this.find(id!);
        if (!ticket) return notFound(id!);
        const updates = asDict(updatesArg);
        const invalid = [...updates.keys()].filter((k) => !VALID_FIELDS.includes(k as string));
        if (invalid.length > 0)
          // Python joins a set here; its order for a single field is that field
          return rec({ error: `Invalid fields for update: ${invalid.map((k) => str(k)).join(", ")}` });
        for (const [k, v] of updates) if (v !== null) ticket.set(k, v);
        return rec({ status: `Ticket ${str(id!)} has been updated successfully.` });
      }),
      ticket_login: method(["username", "password"], ([username, password]) => {
        if (truthy(username!) && truthy(password!)) {
          this.current_user = username!;
          return rec({ success: true });
        }
        return rec({ success: false });
      }),
      ticket_get_login_status: method([], () => rec({ login_status: truthy(this.current_user) })),
      logout: method([], () => {
        if (!truthy(this.current_user)) return rec({ success: false });
        this.current_user = null;
        return rec({ success: true });
      }),
      get_user_tickets: method([["status", null]], ([status]) => {
        if (!truthy(this.current_user))
          return [rec({ error: "User not authenticated. Please log in to view tickets." })];
        let tickets = this.ticket_queue.filter((t) => eq(getItem(t, "created_by"), this.current_user));
        if (truthy(status!)) {
          const wanted = asStr(status).toLowerCase();
          tickets = tickets.filter((t) => asStr(getItem(t, "status")).toLowerCase() === wanted);
        }
        return tickets;
      }),
    };
  }
}
