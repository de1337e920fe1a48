/**
 * The text of a JSON or YAML file the harness reads (run file, SLO, traffic, churn, soak, chaos, tolerances, compose
 * file) turned into data, with every error the yaml library or JSON.parse raises, whatever its kind, as a
 * FileTextError that says where in the file (file:line:col) and why: a caller makes it a usage error (exit 2), never
 * a crash. That covers YAML syntax, an alias bomb (nested anchors the library refuses to expand) and an alias
 * without its anchor, which the library only raises when it builds the data.
 */
import { LineCounter, parseDocument, visit, type Document } from "yaml";

/** How many nodes the aliases of a file may expand to (the yaml library refuses more: a resource exhaustion attack). */
export const MAX_ALIAS_COUNT = 1000;

/** What is wrong with a file's text, and where. */
export class FileTextError extends Error {
  override name = "FileTextError";
  /** "file:line:col", or the file alone when no place can be told. */
  readonly where: string;
  /** The library's reason, one line, without a final period. */
  readonly reason: string;

  constructor(where: string, reason: string) {
    super(`${where}: ${reason}`);
    this.where = where;
    this.reason = reason;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n")[0] ?? text).replace(/\.$/, "");
}

function placeOf(file: string, lines: LineCounter, offset: number | undefined): string {
  if (offset === undefined) return file;
  const { line, col } = lines.linePos(offset);
  return `${file}:${String(line)}:${String(col)}`;
}

/**
 * The data of a parsed YAML document. The library raises alias errors only here, without a place: the place is the
 * first alias that fails on its own (an alias bomb's first too-deep alias), else the first alias of the document.
 */
export function yamlDocumentData(doc: Document, lines: LineCounter, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    let culprit: number | undefined;
    let first: number | undefined;
    visit(doc, {
      Alias(_, node) {
        first ??= node.range?.[0];
        try {
          node.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
        } catch {
          culprit = node.range?.[0];
          return visit.BREAK;
        }
        return undefined;
      },
    });
    throw new FileTextError(placeOf(file, lines, culprit ?? first), firstLine(error));
  }
}

/** YAML (which also reads JSON): the data, or a FileTextError at the first problem. */
export function parseYamlText(text: string, file: string): unknown {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const [problem] = [...doc.errors];
  if (problem) throw new FileTextError(placeOf(file, lines, problem.pos[0]), firstLine(problem));
  return yamlDocumentData(doc, lines, file);
}

/**
 * JSON, judged by JSON.parse, with its reason. JSON.parse gives no place that can be relied on, so the place is where
 * the yaml library, reading the text as strict JSON, finds its first problem; for the few JSON errors YAML allows (a
 * trailing comma, single quotes) it is the file alone.
 */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (text.trim() === "") throw new FileTextError(`${file}:1:1`, "the file is empty");
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, schema: "json" });
    throw new FileTextError(placeOf(file, lines, doc.errors[0]?.pos[0]), firstLine(error));
  }
}
