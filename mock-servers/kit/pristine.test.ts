import { describe, expect, it } from "vitest";
import { PristineStateError } from "./errors.ts";
import { deepFreeze, pristineState } from "./pristine.ts";

interface Shelf {
  books: { title: string; tags: string[]; note?: string }[];
  owner: { name: string };
  keeper: { name: string };
  archive: { year: number; titles: string[] };
  count: number;
}

function buildShelf(): Shelf {
  const owner = { name: "alice" };
  return {
    books: [{ title: "Dune", tags: ["sf"], note: undefined }],
    owner,
    keeper: owner,
    archive: deepFreeze({ year: 2020, titles: ["Emma"] }),
    count: 0,
  };
}

describe("pristineState", () => {
  it("builds once and hands out equal copies that share nothing mutable", () => {
    let builds = 0;
    const create = pristineState(() => {
      builds += 1;
      return buildShelf();
    });
    const first = create();
    const second = create();
    expect(builds).toBe(1);
    expect(first).toEqual(buildShelf());
    expect(Object.keys(first.books[0]!)).toEqual(["title", "tags", "note"]);
    expect(second).not.toBe(first);
    expect(second.books).not.toBe(first.books);
    expect(second.books[0]!.tags).not.toBe(first.books[0]!.tags);
  });

  it("gives the pristine state again after a copy was written to (a reset after a write)", () => {
    const create = pristineState(buildShelf);
    const written = create();
    written.books[0]!.tags.push("classic");
    written.books.push({ title: "Emma", tags: [] });
    written.owner.name = "bob";
    written.count = 3;
    expect(create()).toEqual(buildShelf());
  });

  it("keeps aliasing inside one copy, like structuredClone", () => {
    const copy = pristineState(buildShelf)();
    expect(copy.keeper).toBe(copy.owner);
    copy.owner.name = "bob";
    expect(copy.keeper.name).toBe("bob");
    expect(copy.owner).not.toBe(pristineState(buildShelf)().owner);
  });

  it("copies a cycle as a cycle", () => {
    const copy = pristineState(() => {
      const node: { name: string; next?: unknown } = { name: "a" };
      node.next = [node];
      return node;
    })();
    expect((copy.next as unknown[])[0]).toBe(copy);
  });

  it("shares frozen parts between copies, and a write to one throws", () => {
    const create = pristineState(buildShelf);
    const first = create();
    const second = create();
    expect(second.archive).toBe(first.archive);
    expect(Object.isFrozen(first.archive.titles)).toBe(true);
    expect(() => {
      first.archive.titles.push("Persuasion");
    }).toThrow(TypeError);
    expect(() => {
      (first.archive as { year: number }).year = 2021;
    }).toThrow(TypeError);
    expect(second.archive.titles).toEqual(["Emma"]);
  });

  it.each([
    ["a Map", () => ({ index: new Map() }), "state.index"],
    ["a class instance", () => ({ when: new Date(0) }), "state.when"],
    ["a function", () => ({ run: () => 1 }), "state.run"],
    ["a sparse array", () => ({ list: new Array(2) }), "state.list[0]"],
    ["a null-prototype object", () => ({ bag: Object.create(null) }), "state.bag"],
    ["a mutable object inside a frozen one", () => ({ part: Object.freeze({ inner: { n: 1 } }) }), "state.part.inner"],
  ])("refuses a state holding %s, naming where", (_label, build, path) => {
    const create = pristineState(build as () => object);
    expect(create).toThrow(PristineStateError);
    expect(create).toThrow(`${path}:`);
  });
});

describe("deepFreeze", () => {
  it("freezes nested objects and arrays and returns its argument", () => {
    const value = { a: { b: [{ c: 1 }] } };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.a.b[0])).toBe(true);
  });
});
