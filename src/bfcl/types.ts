import type { ExpectedArgs } from "../bench/scoring/arg-match.ts";

/** A BFCL parameter doc: BFCL type names (dict, integer, float, string, boolean, array, tuple, any). */
export interface BfclParamDoc {
  readonly type: string;
  readonly description?: string;
  readonly items?: BfclParamDoc;
  readonly properties?: Readonly<Record<string, BfclParamDoc>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly [extra: string]: unknown;
}

export interface BfclFunctionDoc {
  readonly name: string;
  readonly description?: string;
  readonly parameters: {
    readonly type: string;
    readonly properties: Readonly<Record<string, BfclParamDoc>>;
    readonly required?: readonly string[];
  };
}

export interface BfclMessage {
  readonly role: string;
  readonly content: string;
}

/** One line of data/BFCL_v3_<cat>.json. `question` is a list of turns, each a list of messages. */
export interface BfclQuestion {
  readonly id: string;
  readonly question: readonly (readonly BfclMessage[])[];
  readonly function: readonly BfclFunctionDoc[];
}

/** One expected call of a possible answer: the function and, per parameter, its acceptable values. */
export interface ExpectedCall {
  readonly name: string;
  readonly args: ExpectedArgs;
  /** Set when the ground truth itself is malformed: no model call can match it. */
  readonly problem?: string;
}

/** BFCL's verdict on one entry; `errorType` is BFCL's exact string (e.g. `type_error:simple`). */
export type BfclVerdict =
  | { readonly valid: true }
  | { readonly valid: false; readonly errorType: string; readonly error: readonly string[] };
