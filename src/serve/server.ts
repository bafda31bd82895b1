/**
 * Listens with the app: on 127.0.0.1 unless told otherwise, and on any other address only with a token
 * (a service that runs benches and reads the results folder is not for the network at large). Every
 * request passes the guard first (guard.ts: Host, Origin, JSON bodies, the body limit).
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import { InputError } from "../errors.ts";
import { guarded } from "./guard.ts";

export const DEFAULT_HOST = "127.0.0.1";
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** `--host` other than loopback without `--token`. */
export class UnsafeBindError extends InputError {}

export interface ListenOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  token?: string;
  /** Names the `Host` header may carry besides the listening address's (guard.ts). */
  allowHosts?: readonly string[];
  /** The largest request body accepted (default 1 MB). */
  maxBodyBytes?: number;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  close(): Promise<void>;
}

export function checkBind(host: string, token: string | undefined): void {
  if (!LOOPBACK.has(host) && (token === undefined || token === "")) {
    throw new UnsafeBindError(
      "TOKEN_REQUIRED",
      `--host ${host} makes the server reachable from other machines: give --token T as well (requests then need it)`,
    );
  }
}

export async function listen(app: Hono, options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  checkBind(host, options.token);
  const server = await new Promise<ReturnType<typeof serve>>((resolveListening, reject) => {
    const { fetch } = guarded(app, {
      host,
      ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
      ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    });
    const started = serve({ fetch, hostname: host, port: options.port ?? 0 }, () => resolveListening(started));
    started.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    host,
    port,
    close: () =>
      new Promise((resolveClosed, reject) => {
        // SSE streams keep connections open: drop them so close ends
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolveClosed()));
      }),
  };
}
