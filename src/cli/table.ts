/**
 * Tables on the terminal. Colour only when stdout is a terminal and NO_COLOR is unset (FORCE_COLOR
 * forces it, FORCE_COLOR=0 forbids it): piped output, CI logs and files get plain text.
 */
import Table from "cli-table3";
import { BORDERLESS, TERMINAL_WIDTH } from "../report/terminal.ts";

export type TableOptions = Table.TableConstructorOptions;

export function colorEnabled(
  stream: { isTTY?: boolean } = process.stdout,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR) return false;
  return stream.isTTY === true;
}

/** A bordered table; cli-table3's red headers and grey borders only where colour is wanted. */
export function cliTable(options: TableOptions): Table.Table {
  const plain = colorEnabled() ? {} : { head: [], border: [] };
  return new Table({ ...options, style: { ...plain, ...options.style } });
}

/** No borders, columns two spaces apart, plain: the most columns that fit a terminal of 100. */
export function compactTable(options: TableOptions): Table.Table {
  return new Table({ ...options, ...BORDERLESS });
}

/** The width tables are cut to: the terminal's, or 100 columns when the output is not a terminal (a file, CI). */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number {
  return ttyWidth(stream) ?? TERMINAL_WIDTH;
}

/** The terminal's width, for text wrapped to it; none when the output is not a terminal (each fact on one line). */
export function ttyWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number | undefined {
  return stream.isTTY === true && stream.columns ? stream.columns : undefined;
}
