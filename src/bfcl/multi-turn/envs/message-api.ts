/** BFCL's MessageAPI: users, a shared inbox of `{receiver_id: message}` entries, seeded message ids. */

import { Environment, type Method, method } from "../environment.ts";
import {
  asDict,
  asList,
  asStr,
  contains,
  dget,
  dict,
  eq,
  type PyDict,
  PyException,
  PySet,
  rec,
  str,
  truthy,
  typeName,
  type V,
} from "../py.ts";
import { PyRandom } from "../py-random.ts";

const DEFAULT_STATE = (): PyDict =>
  rec({
    generated_ids: new PySet(),
    user_count: 4,
    user_map: rec({ Alice: "USR001", Bob: "USR002", Catherine: "USR003", Daniel: "USR004" }),
    inbox: [
      rec({ USR002: "My name is Alice. I want to connect." }),
      rec({ USR003: "Could you upload the file?" }),
      rec({ USR004: "Could you upload the file?" }),
    ],
    message_count: 3,
    current_user: null,
  });

const NOT_LOGGED_IN = (): PyDict => rec({ error: "No user is currently logged in." });

export class MessageAPI extends Environment {
  readonly className = "MessageAPI";
  private random = new PyRandom(200191);
  generated_ids: V = new PySet();
  user_count: V = 4;
  user_map: PyDict = dict();
  inbox: V[] = [];
  message_count: V = 3;
  current_user: V = null;

  loadScenario(config: PyDict): void {
    const defaults = DEFAULT_STATE();
    this.random = new PyRandom(dget(config, "random_seed", 200191) as number);
    this.generated_ids = dget(config, "generated_ids", defaults.get("generated_ids")!);
    this.user_count = dget(config, "user_count", defaults.get("user_count")!);
    this.user_map = asDict(dget(config, "user_map", defaults.get("user_map")!));
    this.inbox = asList(dget(config, "inbox", defaults.get("inbox")!));
    this.message_count = dget(config, "message_count", defaults.get("message_count")!);
    this.current_user = dget(config, "current_user", defaults.get("current_user")!);
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return this.attributes(["generated_ids", "user_count", "user_map", "inbox", "message_count", "current_user"]);
  }

  private generateId(): PyDict {
    const taken = (id: number): boolean => contains(this.generated_ids, id);
    let id = this.random.randint(10000, 99999);
    while (taken(id)) id = this.random.randint(10000, 99999);
    const ids = this.generated_ids;
    if (!(ids instanceof PySet))
      throw new PyException("AttributeError", `'${typeName(ids)}' object has no attribute 'add'`);
    ids.items.add(id);
    return rec({ new_id: id });
  }

  private firstEntry(message: V): [V, V] {
    const [entry] = [...asDict(message)];
    return entry as [V, V];
  }

  protected defineMethods(): Record<string, Method> {
    return {
      list_users: method([], () => rec({ user_list: [...this.user_map.keys()] })),
      get_user_id: method(["user"], ([user]) =>
        contains(this.user_map, user!)
          ? rec({ user_id: this.user_map.get(user as string)! })
          : rec({ error: `User '${str(user!)}' not found in the workspace.` }),
      ),
      message_login: method(["user_id"], ([userId]) => {
        if (![...this.user_map.values()].some((id) => id === userId))
          return rec({ login_status: false, message: `User ID '${str(userId!)}' not found.` });
        this.current_user = userId!;
        return rec({ login_status: true, message: `User '${str(userId!)}' logged in successfully.` });
      }),
      message_get_login_status: method([], () => rec({ login_status: truthy(this.current_user) })),
      send_message: method(["receiver_id", "message"], ([receiverId, message]) => {
        if (!truthy(this.current_user)) return NOT_LOGGED_IN();
        if (![...this.user_map.values()].some((id) => id === receiverId))
          return rec({ error: `Receiver ID '${str(receiverId!)}' not found.` });
        const messageId = this.generateId();
        this.inbox.push(dict([[receiverId as string, message!]]));
        this.message_count = (this.message_count as number) + 1;
        return rec({
          sent_status: true,
          message_id: messageId,
          message: `Message sent to '${str(receiverId!)}' successfully.`,
        });
      }),
      delete_message: method(["receiver_id"], ([receiverId]) => {
        if (!truthy(this.current_user)) return NOT_LOGGED_IN();
        for (let i = this.inbox.length - 1; i >= 0; i--) {
          const [receiver] = this.firstEntry(this.inbox[i]!);
          if (receiver === receiverId) {
            // list.remove drops the first entry equal to this one, which may be an earlier copy
            const first = this.inbox.findIndex((m) => eq(m, this.inbox[i]!));
            this.inbox.splice(first, 1);
            return rec({
              deleted_status: true,
              receiver_id: receiver,
              message: `Receiver ${str(receiverId!)}'s latest message deleted successfully.`,
            });
          }
        }
        return rec({ error: `Receiver ID ${str(receiverId!)} not found.` });
      }),
      view_messages_sent: method([], () => {
        if (!truthy(this.current_user)) return NOT_LOGGED_IN();
        const sent = dict();
        for (const message of this.inbox) {
          const [receiver, content] = this.firstEntry(message);
          const k = receiver as string;
          if (!sent.has(k)) sent.set(k, [content]);
          else (sent.get(k) as V[]).push(content);
        }
        return rec({ messages: sent });
      }),
      add_contact: method(["user_name"], ([userName]) => {
        if (contains(this.user_map, userName!)) return rec({ error: `User name '${str(userName!)}' already exists.` });
        this.user_count = (this.user_count as number) + 1;
        const userId = `USR${String(this.user_count).padStart(3, "0")}`;
        if ([...this.user_map.values()].includes(userId)) return rec({ error: `User ID '${userId}' already exists.` });
        this.user_map.set(userName as string, userId);
        return rec({ added_status: true, user_id: userId, message: `Contact '${str(userName!)}' added successfully.` });
      }),
      search_messages: method(["keyword"], ([keyword]) => {
        if (!truthy(this.current_user)) return NOT_LOGGED_IN();
        const needle = asStr(keyword).toLowerCase();
        const results: V[] = [];
        for (const message of this.inbox) {
          const [receiver, content] = this.firstEntry(message);
          if ((content as string).toLowerCase().includes(needle))
            results.push(rec({ receiver_id: receiver, message: content }));
        }
        return rec({ results });
      }),
      get_message_stats: method([], () => {
        if (!truthy(this.current_user)) return NOT_LOGGED_IN();
        const contacts = new Set<V>();
        for (const message of this.inbox) contacts.add(this.firstEntry(message)[0]);
        return rec({ stats: rec({ received_count: this.inbox.length, total_contacts: contacts.size }) });
      }),
    };
  }
}
