import filesFixture from "./fixtures/files.json" with { type: "json" };
import { LAB_ROOT, parentOf } from "./paths.ts";

export interface FinishRecord {
  answer: string;
  /** How many times finish was called (the last answer wins). */
  calls: number;
}

export interface LabState {
  /** Absolute path → UTF-8 content, for every file under /lab. */
  files: Record<string, string>;
  /** Every directory under /lab (including /lab itself), sorted. */
  directories: string[];
  finish: FinishRecord | null;
}

/** Fresh state from the fixtures: the file tree (directories derived from file paths); the database lives in the SQL worker (sql-workers.ts). */
export function createLabState(): LabState {
  const files: Record<string, string> = { ...filesFixture.files };
  const directories = new Set<string>([LAB_ROOT, ...filesFixture.directories]);
  for (const path of [...Object.keys(files), ...filesFixture.directories]) {
    for (let dir = parentOf(path); dir.startsWith(LAB_ROOT); dir = parentOf(dir)) directories.add(dir);
  }
  return { files, directories: [...directories].sort(), finish: null };
}
