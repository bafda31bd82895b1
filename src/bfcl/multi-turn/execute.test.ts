import { describe, expect, it } from "vitest";
import { EnvironmentSet } from "./execute.ts";
import { dict, f, rec } from "./py.ts";

function fileSystem(): EnvironmentSet {
  const config = rec({
    GorillaFileSystem: rec({
      root: rec({
        home: rec({
          type: "directory",
          contents: rec({ "notes.txt": rec({ type: "file", content: "b line\na line\n" }) }),
        }),
      }),
    }),
    TradingBot: rec({ account_info: rec({ account_id: 1, balance: f(0), binding_card: 2 }), authenticated: true }),
  });
  return new EnvironmentSet(["GorillaFileSystem", "TradingBot", "MathAPI"], config, false);
}

// The expected strings are what BFCL's Python prints for the same calls (Python 3.11).
describe("EnvironmentSet.execute, as BFCL's execute_multi_turn_func_call", () => {
  it("prints dicts as json.dumps, None and lists as str()", () => {
    const envs = fileSystem();
    expect(envs.execute(["touch(file_name='x.txt')", "ls()", "sort('notes.txt')", "add(a=1, b=2.0)"])).toEqual([
      "None",
      '{"current_directory_content": ["notes.txt", "x.txt"]}',
      '{"sorted_content": "a line\\nb line"}',
      '{"result": 3.0}',
    ]);
  });

  it("keeps state across turns and prints floats as Python does", () => {
    const envs = fileSystem();
    envs.execute(["fund_account(amount=0.1)"]);
    expect(envs.execute(["fund_account(amount=0.2)"])).toEqual([
      '{"status": "Account funded successfully", "new_balance": 0.30000000000000004}',
    ]);
  });

  it("reports Python's own errors for unknown names, bad arguments and refused calls", () => {
    const envs = fileSystem();
    expect(envs.execute(["nope(a=1)", "cd()", "cd(folder='home', extra=1)", "ls(True, False)", "exit()"])).toEqual([
      "Error during execution: name 'nope' is not defined",
      "Error during execution: GorillaFileSystem.cd() missing 1 required positional argument: 'folder'",
      "Error during execution: GorillaFileSystem.cd() got an unexpected keyword argument 'extra'",
      "Error during execution: GorillaFileSystem.ls() takes from 1 to 2 positional arguments but 3 were given",
      "Error during execution: Function call exit is not allowed.",
    ]);
  });

  it("prints mpmath and Decimal results through str(dict), as json.dumps cannot", () => {
    const envs = fileSystem();
    expect(envs.execute(["logarithm(value=10, base=2, precision=10)", "square_root(number=2, precision=5)"])).toEqual([
      "{'result': mpf('3.321928094869')}",
      "{'result': Decimal('1.4142')}",
    ]);
  });

  it("names an unknown environment", () => {
    expect(() => new EnvironmentSet(["WeatherAPI"], dict(), false)).toThrow(/unknown environment WeatherAPI/);
  });
});
