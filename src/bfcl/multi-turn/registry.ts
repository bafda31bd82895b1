/** The eight environments by the class names BFCL's entries use, and the doc file of each. */

import type { Environment } from "./environment.ts";
import { GorillaFileSystem } from "./envs/gorilla-file-system.ts";
import { MathAPI } from "./envs/math-api.ts";
import { MessageAPI } from "./envs/message-api.ts";
import { TicketAPI } from "./envs/ticket-api.ts";
import { TradingBot } from "./envs/trading-bot.ts";
import { TravelAPI } from "./envs/travel-api.ts";
import { TwitterAPI } from "./envs/twitter-api.ts";
import { VehicleControlAPI } from "./envs/vehicle-control.ts";

export const ENVIRONMENTS = {
  GorillaFileSystem: { create: () => new GorillaFileSystem(), docFile: "gorilla_file_system.json" },
  MathAPI: { create: () => new MathAPI(), docFile: "math_api.json" },
  MessageAPI: { create: () => new MessageAPI(), docFile: "message_api.json" },
  TwitterAPI: { create: () => new TwitterAPI(), docFile: "posting_api.json" },
  TicketAPI: { create: () => new TicketAPI(), docFile: "ticket_api.json" },
  TradingBot: { create: () => new TradingBot(), docFile: "trading_bot.json" },
  TravelAPI: { create: () => new TravelAPI(), docFile: "travel_booking.json" },
  VehicleControlAPI: { create: () => new VehicleControlAPI(), docFile: "vehicle_control.json" },
} as const satisfies Record<string, { create: () => Environment; docFile: string }>;

export type EnvironmentName = keyof typeof ENVIRONMENTS;

export const ENVIRONMENT_NAMES = Object.keys(ENVIRONMENTS) as EnvironmentName[];

/** BFCL's STATELESS_CLASSES: created without loading a scenario. */
export const STATELESS: ReadonlySet<string> = new Set(["MathAPI"]);

export function isEnvironmentName(name: string): name is EnvironmentName {
  return Object.hasOwn(ENVIRONMENTS, name);
}
