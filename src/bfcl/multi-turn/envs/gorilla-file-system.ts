/** BFCL's GorillaFileSystem: an in-memory tree of File and Directory objects with shell-like commands. */

import { Environment, type Method, method } from "../environment.ts";
import { longContext } from "../long-context.ts";
import {
  asDict,
  canonical,
  dict,
  fixedHalfEven,
  type PyDict,
  PyException,
  type PyObject,
  rec,
  repr,
  splitlines,
  splitWhitespace,
  str,
  strLen,
  truthy,
  type V,
} from "../py.ts";

export class PyFile implements PyObject {
  readonly pyClass = "File";
  constructor(
    public name: string,
    public content = "",
  ) {}
  pyEq(other: PyObject): boolean {
    return other instanceof PyFile && this.name === other.name && this.content === other.content;
  }
  pyRepr(): string {
    return `<<File: ${this.name}, Content: ${this.content}>>`;
  }
  canonical(): unknown {
    return { File: [this.name, this.content] };
  }
}

export class PyDirectory implements PyObject {
  readonly pyClass = "Directory";
  contents: PyDict = dict();
  constructor(
    public name: string,
    public parent: PyDirectory | null = null,
  ) {}
  addFile(fileName: string, content = ""): void {
    if (this.contents.has(fileName))
      throw new PyException("ValueError", `File '${fileName}' already exists in directory '${this.name}'.`);
    this.contents.set(fileName, new PyFile(fileName, content));
  }
  addDirectory(dirName: string): void {
    if (this.contents.has(dirName))
      throw new PyException("ValueError", `Directory '${dirName}' already exists in directory '${this.name}'.`);
    this.contents.set(dirName, new PyDirectory(dirName, this));
  }
  getItem(itemName: string): V {
    if (itemName === ".") return this;
    return this.contents.get(itemName) ?? null;
  }
  pyEq(other: PyObject): boolean {
    if (!(other instanceof PyDirectory) || this.name !== other.name) return false;
    if (this.contents.size !== other.contents.size) return false;
    for (const [k, v] of this.contents) {
      const o = other.contents.get(k);
      if (o === undefined || !(v as PyObject).pyEq(o as PyObject)) return false;
    }
    return true;
  }
  pyRepr(): string {
    return `<Directory: ${this.name}, Parent: ${this.parent ? this.parent.name : "None"}, Contents: ${repr(this.contents)}>`;
  }
  canonical(): unknown {
    return { Dir: [this.name, canonical(this.contents)] };
  }
}

const INVALID_NAME_CHARS = '|/\\?%*:"><';
const validName = (name: string): boolean => ![...INVALID_NAME_CHARS].some((c) => name.includes(c));

function text(v: V, what: string): string {
  if (typeof v === "string") return v;
  throw new PyException("TypeError", `${what}: expected str, got ${repr(v)}`);
}

export class GorillaFileSystem extends Environment {
  readonly className = "GorillaFileSystem";
  root = new PyDirectory("/", null);
  private currentDir = this.root;
  private longContextOn = false;

  loadScenario(config: PyDict, longContextOn: boolean): void {
    this.longContextOn = longContextOn;
    this.root = new PyDirectory("/", null);
    const scenarioRoot = config.get("root");
    if (scenarioRoot !== undefined) {
      const top = asDict(scenarioRoot);
      const rootName = [...top.keys()][0] as string;
      this.root = this.loadDirectory(
        asDict(asDict(top.get(rootName)).get("contents")),
        new PyDirectory(rootName, null),
      );
    }
    this.currentDir = this.root;
  }

  private loadDirectory(current: PyDict, parent: PyDirectory): PyDirectory {
    let bottommost = true;
    for (const [name, data] of current) {
      const entry = asDict(data);
      if (entry.get("type") === "directory") {
        bottommost = false;
        const child = this.loadDirectory(asDict(entry.get("contents")), new PyDirectory(name as string, parent));
        parent.contents.set(name, child);
      } else if (entry.get("type") === "file") {
        let content = entry.get("content") as string;
        if (this.longContextOn && !longContext().FILES_TAIL_USED.includes(name as string))
          content += longContext().FILE_CONTENT_EXTENSION;
        parent.contents.set(name, new PyFile(name as string, content));
      }
    }
    if (bottommost && this.longContextOn)
      for (const fileName of longContext().POPULATE_FILE_EXTENSION) parent.addFile(fileName as string);
    return parent;
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return [
      ["long_context", this.longContextOn],
      ["root", this.root],
    ];
  }

  private navigate(path: string | null): PyDirectory | PyDict {
    if (path === null || path === ".") return this.currentDir;
    if (path === "/") return this.root;
    const dirs = path.replace(/^\/+|\/+$/g, "").split("/");
    let dir = path.startsWith("/") ? this.root : this.currentDir;
    for (const name of dirs) {
      const next = dir.getItem(name);
      if (!(next instanceof PyDirectory)) return rec({ error: `cd: '${path}': No such file or directory` });
      dir = next;
    }
    return dir;
  }

  private file(name: V): PyFile | undefined {
    const item = this.currentDir.contents.get(name as string);
    return item instanceof PyFile ? item : undefined;
  }

  protected defineMethods(): Record<string, Method> {
    return {
      pwd: method([], () => {
        const path: string[] = [];
        for (let dir: PyDirectory | null = this.currentDir; dir !== null; dir = dir.parent) path.push(dir.name);
        return rec({ current_working_directory: `/${path.reverse().join("/")}` });
      }),
      ls: method([["a", false]], ([a]) => {
        let contents = [...this.currentDir.contents.keys()] as string[];
        if (!truthy(a!)) contents = contents.filter((item) => !item.startsWith("."));
        return rec({ current_directory_content: contents });
      }),
      cd: method(["folder"], ([folderArg]) => {
        let folder = text(folderArg!, "cd").replace(/\/+$/, "");
        if (folder === "") folder = "/";
        if (![".", "..", "/"].includes(folder) && folder.includes("/"))
          return rec({ error: `cd: ${folder}: Unsupported path. Only one folder level at a time is supported.` });
        if (folder === "..") {
          if (this.currentDir.parent) this.currentDir = this.currentDir.parent;
          else if (this.root.pyEq(this.currentDir))
            return rec({ error: "Current directory is already the root. Cannot go back." });
          else return rec({ error: "cd: ..: No such directory" });
          return dict();
        }
        const target = this.navigate(folder);
        if (!(target instanceof PyDirectory)) return target;
        this.currentDir = target;
        return rec({ current_working_directory: target.name });
      }),
      mkdir: method(["dir_name"], ([dirName]) => {
        const name = text(dirName!, "mkdir");
        if (!validName(name)) return rec({ error: `mkdir: cannot create directory '${name}': Invalid character` });
        if (this.currentDir.contents.has(name))
          return rec({ error: `mkdir: cannot create directory '${name}': File exists` });
        this.currentDir.addDirectory(name);
        return null;
      }),
      touch: method(["file_name"], ([fileName]) => {
        const name = text(fileName!, "touch");
        if (!validName(name)) return rec({ error: `touch: cannot touch '${name}': Invalid character` });
        if (this.currentDir.contents.has(name)) return rec({ error: `touch: cannot touch '${name}': File exists` });
        this.currentDir.addFile(name);
        return null;
      }),
      echo: method(["content", ["file_name", null]], ([content, fileName]) => {
        if (fileName === null) return rec({ terminal_output: content! });
        const name = text(fileName!, "echo");
        if (!validName(name)) return rec({ error: `echo: cannot write to '${name}': Invalid character` });
        if (name === "") return rec({ terminal_output: content! });
        const item = this.currentDir.contents.get(name);
        if (item === undefined) return rec({ error: `echo: cannot write to '${name}': No such file` });
        if (!(item instanceof PyFile))
          throw new PyException("AttributeError", "'Directory' object has no attribute '_write'");
        item.content = content as string;
        return null;
      }),
      cat: method(["file_name"], ([fileName]) => {
        const name = text(fileName!, "cat");
        if (!validName(name)) return rec({ error: `cat: '${name}': Invalid character` });
        const item = this.currentDir.contents.get(name);
        if (item === undefined) return rec({ error: `cat: '${name}': No such file or directory` });
        if (item instanceof PyFile) return rec({ file_content: item.content });
        return rec({ error: `cat: '${name}': Is a directory` });
      }),
      find: method(
        [
          ["path", "."],
          ["name", null],
        ],
        ([pathArg, nameArg]) => {
          const path = text(pathArg!, "find");
          const target = this.navigate(path);
          if (!(target instanceof PyDirectory)) {
            const message = (target.get("error") ?? "") as string;
            return message.startsWith("cd:") ? rec({ error: message.replace("cd:", "find:") }) : target;
          }
          const matches: string[] = [];
          const search = (dir: PyDirectory, base: string): void => {
            for (const [itemName, item] of dir.contents) {
              const itemPath = `${base}/${itemName as string}`;
              if (nameArg === null || (itemName as string).includes(str(nameArg!))) matches.push(itemPath);
              if (item instanceof PyDirectory) search(item, itemPath);
            }
          };
          search(target, path.replace(/\/+$/, ""));
          return rec({ matches });
        },
      ),
      wc: method(["file_name", ["mode", "l"]], ([fileName, mode]) => {
        if (!["l", "w", "c"].includes(mode as string)) return rec({ error: `wc: invalid mode '${str(mode!)}'` });
        const file = this.file(fileName!);
        if (file) {
          if (mode === "l") return rec({ count: splitlines(file.content).length, type: "lines" });
          if (mode === "w") return rec({ count: splitWhitespace(file.content).length, type: "words" });
          return rec({ count: strLen(file.content), type: "characters" });
        }
        return rec({ error: `wc: ${str(fileName!)}: No such file or directory` });
      }),
      sort: method(["file_name"], ([fileName]) => {
        const file = this.file(fileName!);
        if (file) return rec({ sorted_content: splitlines(file.content).sort(byCodePoint).join("\n") });
        return rec({ error: `sort: ${str(fileName!)}: No such file or directory` });
      }),
      grep: method(["file_name", "pattern"], ([fileName, pattern]) => {
        const file = this.file(fileName!);
        if (file) {
          const p = text(pattern!, "grep");
          return rec({ matching_lines: splitlines(file.content).filter((line) => line.includes(p)) });
        }
        return rec({ error: `grep: ${str(fileName!)}: No such file or directory` });
      }),
      du: method([["human_readable", false]], ([humanReadable]) => {
        const size = (item: V): number =>
          item instanceof PyFile
            ? Buffer.byteLength(item.content, "utf8")
            : item instanceof PyDirectory
              ? [...item.contents.values()].reduce<number>((sum, child) => sum + size(child), 0)
              : 0;
        let total = size(this.currentDir);
        if (!truthy(humanReadable!)) return rec({ disk_usage: `${total} bytes` });
        for (const unit of ["B", "KB", "MB", "GB", "TB"]) {
          if (total < 1024) return rec({ disk_usage: `${fixedHalfEven(total, 2)} ${unit}` });
          total /= 1024;
        }
        return rec({ disk_usage: `${fixedHalfEven(total, 2)} PB` });
      }),
      tail: method(["file_name", ["lines", 10]], ([fileName, linesArg]) => {
        const file = this.file(fileName!);
        if (file) {
          const content = splitlines(file.content);
          let lines = linesArg as number;
          if (lines > content.length) lines = content.length;
          return rec({ last_lines: content.slice(-lines).join("\n") });
        }
        return rec({ error: `tail: ${str(fileName!)}: No such file or directory` });
      }),
      diff: method(["file_name1", "file_name2"], ([name1, name2]) => {
        const [file1, file2] = [
          this.currentDir.contents.get(name1 as string),
          this.currentDir.contents.get(name2 as string),
        ];
        if (file1 instanceof PyFile && file2 instanceof PyFile) {
          const [a, b] = [splitlines(file1.content), splitlines(file2.content)];
          const lines: string[] = [];
          for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) lines.push(`- ${a[i]}\n+ ${b[i]}`);
          return rec({ diff_lines: lines.join("\n") });
        }
        return rec({ error: `diff: ${str(name1!)} or ${str(name2!)}: No such file or directory` });
      }),
      mv: method(["source", "destination"], ([sourceArg, destinationArg]) =>
        this.moveOrCopy("mv", text(sourceArg!, "mv"), text(destinationArg!, "mv")),
      ),
      cp: method(["source", "destination"], ([sourceArg, destinationArg]) =>
        this.moveOrCopy("cp", text(sourceArg!, "cp"), text(destinationArg!, "cp")),
      ),
      rm: method(["file_name"], ([fileName]) => {
        const name = fileName as string;
        if (!this.currentDir.contents.has(name))
          return rec({ error: `rm: cannot remove '${str(fileName!)}': No such file or directory` });
        this.currentDir.contents.delete(name);
        return rec({ result: `'${name}' removed` });
      }),
      rmdir: method(["dir_name"], ([dirName]) => {
        const name = dirName as string;
        const item = this.currentDir.contents.get(name);
        if (item === undefined)
          return rec({ error: `rmdir: cannot remove '${str(dirName!)}': No such file or directory` });
        if (!(item instanceof PyDirectory)) return rec({ error: `rmdir: cannot remove '${name}': Not a directory` });
        if (item.contents.size > 0) return rec({ error: `rmdir: cannot remove '${name}': Directory not empty` });
        this.currentDir.contents.delete(name);
        return rec({ result: `'${name}' removed` });
      }),
    };
  }

  /** mv and cp share their checks; mv takes the source away, cp leaves it (and shares its children). */
  private moveOrCopy(command: "mv" | "cp", source: string, destination: string): V {
    const verb = command === "mv" ? "move" : "copy";
    const done = command === "mv" ? "moved" : "copied";
    const here = this.currentDir;
    const item = here.contents.get(source);
    if (item === undefined) return rec({ error: `${command}: cannot ${verb} '${source}': No such file or directory` });
    if (destination.includes("/"))
      return rec({ error: `${command}: path not allowed in destination. Provide only a file or directory name.` });
    const place = (into: PyDirectory, name: string): void => {
      if (item instanceof PyFile) into.addFile(name, item.content);
      else {
        into.addDirectory(name);
        (into.contents.get(name) as PyDirectory).contents =
          command === "mv" ? (item as PyDirectory).contents : dict((item as PyDirectory).contents);
      }
    };
    const dest = here.contents.get(destination);
    if (dest !== undefined) {
      if (!(dest instanceof PyDirectory))
        return rec({ error: `${command}: cannot ${verb} '${source}' to '${destination}': Not a directory` });
      // BFCL's cp looks for "<destination>/<source>" among the destination's names: never there
      const clash = command === "mv" ? source : `${destination}/${source}`;
      if (dest.contents.has(clash))
        return rec({ error: `${command}: cannot ${verb} '${source}' to '${destination}/${source}': File exists` });
      if (command === "mv") here.contents.delete(source);
      place(dest, source);
      return rec({ result: `'${source}' ${done} to '${destination}/${source}'` });
    }
    if (command === "mv") here.contents.delete(source);
    place(here, destination);
    return rec({ result: `'${source}' ${done} to '${destination}'` });
  }
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
