/**
 * The judges of `language` (spec 4.0 and 4.1; docs/contract-gaps.md, Query parameters): the content follows it. An
 * answer in another language GET /v2/config lists is held against the same answer in English (en, or the config's
 * first language where it lists no en): its translated content (the *Translated values) must differ, so a service that
 * ignores the parameter fails. What a translation looks like is the service's own (any text, any script: the freedom
 * wire-format-translated-text), so no judge reads its characters. An unknown code is refused with 400 invalid_params.
 */
import { ERROR_CODES, isErrorEnvelope, isRecord } from "../../contract/index.ts";
import type { ApiResponse, Query } from "../client.ts";
import {
  answerEvidence,
  evidence,
  failed,
  firstType,
  notJudged,
  notJudgedByDesign,
  passed,
  type ConformanceContext,
  type Judge,
  type Verdict,
} from "./judge.ts";

/** A language no service supports (ISO 639-1 leaves "zz" unassigned). */
const UNKNOWN_LANGUAGE = "zz";
const NO_TYPE = "setup found no product type to ask about";

/** The language codes GET /v2/config lists: strings, or objects with a `code` (its structure is not shown, 2.12). */
export function configLanguages(body: unknown): string[] {
  const data = isRecord(body) && isRecord(body.data) ? body.data : {};
  const list: unknown[] = Array.isArray(data.languages) ? (data.languages as unknown[]) : [];
  return list
    .map((l) => (typeof l === "string" ? l : isRecord(l) && typeof l.code === "string" ? l.code : ""))
    .filter((l) => l !== "");
}

/** Two languages GET /v2/config lists: en (or, where it lists none, its first) and another. */
interface Languages {
  english: Query;
  other: string;
}

/** The two languages to compare, or why there are not two (a service with one language: by design). */
function languagesOf(ctx: ConformanceContext): Languages | Verdict {
  const config = ctx.client.getConfig();
  if (config.status === 429) return notJudged(`rate limited: ${answerEvidence("GET", "/v2/config", config)}`);
  const listed = configLanguages(config.body);
  const base = listed.find((l) => l.toLowerCase() === "en") ?? listed[0];
  const other = listed.find((l) => l !== base);
  if (base === undefined || other === undefined) {
    return notJudgedByDesign(
      `GET /v2/config lists no language besides en, so no content can change with it: ${answerEvidence("GET", "/v2/config", config)}`,
    );
  }
  return { english: { language: base }, other };
}

/**
 * The text of a *Translated value, whatever its shape (its shape is 2.12-nested-shapes' business): the strings of an
 * object by language code, or the value itself. The code it sits under is not the content: English text under the
 * asked code has not followed the language.
 */
function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (isRecord(value)) return JSON.stringify(Object.values(value).sort());
  return JSON.stringify(value ?? null);
}

/** The texts of a record's *Translated values, by key. */
function translatedContent(record: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isRecord(record)) return out;
  for (const key of Object.keys(record)) if (key.endsWith("Translated")) out.set(key, textOf(record[key]));
  return out;
}

/** Whether the translated content of `asked` differs from `english` in at least one key both have. */
function differs(asked: Map<string, string>, english: Map<string, string>): boolean {
  for (const [key, text] of asked) if (english.has(key) && english.get(key) !== text) return true;
  return false;
}

function pathOf(base: string, query: Query): string {
  const q = Object.entries(query)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join("&");
  return q === "" ? base : `${base}${base.includes("?") ? "&" : "?"}${q}`;
}

/** The two answers of one request, in English and in the other language; a verdict when either is not a 200. */
function bothAnswers<T>(
  base: string,
  languages: Languages,
  send: (query: Query) => ApiResponse<T>,
): { english: ApiResponse<T>; asked: ApiResponse<T>; path: string } | Verdict {
  const path = pathOf(base, { language: languages.other });
  const asked = send({ language: languages.other });
  if (asked.status === 429) return notJudged(`rate limited: ${answerEvidence("GET", path, asked)}`);
  if (asked.status !== 200)
    return failed(
      `${languages.other}, a language GET /v2/config lists, was not served: ${answerEvidence("GET", path, asked)}`,
    );
  const englishPath = pathOf(base, languages.english);
  const english = send(languages.english);
  if (english.status !== 200)
    return notJudged(`the English answer did not come: ${answerEvidence("GET", englishPath, english)}`);
  return { english, asked, path };
}

const dataOf = (res: ApiResponse<unknown>): unknown => (isRecord(res.body) ? res.body.data : undefined);

/** 4.0: the product detail's translated content follows `language`. */
const languageHonoured: Judge = (ctx) => {
  const type = firstType(ctx);
  if (type === undefined) return notJudged(NO_TYPE);
  const languages = languagesOf(ctx);
  if (!("other" in languages)) return languages;
  const base = `/v2/products/${type.productUuid}`;
  const both = bothAnswers(base, languages, (query) => ctx.client.getProduct(type.productUuid, query));
  if (!("asked" in both)) return both;
  const asked = translatedContent(dataOf(both.asked));
  if (asked.size === 0)
    return failed(`the detail has no translated content: ${answerEvidence("GET", both.path, both.asked)}`);
  return differs(asked, translatedContent(dataOf(both.english)))
    ? passed
    : failed(
        `language=${languages.other}, but its translated content (${[...asked.keys()].join(", ")}) is the English answer's: ${answerEvidence("GET", both.path, both.asked)}`,
      );
};

/** The texts of the list's items' titleTranslated by uuid. */
function titlesByUuid(res: ApiResponse<unknown>): Map<string, string> {
  const items = dataOf(res);
  const out = new Map<string, string>();
  if (!Array.isArray(items)) return out;
  for (const item of items as unknown[])
    if (isRecord(item) && typeof item.uuid === "string") out.set(item.uuid, textOf(item.titleTranslated));
  return out;
}

/** 4.1: the products list's items follow `language`, and an unknown code is refused. */
const productsLanguage: Judge = (ctx) => {
  const unknown = `/v2/products?per_page=1&language=${UNKNOWN_LANGUAGE}`;
  const refused = ctx.raw({ method: "GET", path: unknown });
  if (refused.status === 429) return notJudged(`rate limited: ${evidence("GET", unknown, refused)}`);
  const code = isErrorEnvelope(refused.json) ? refused.json.error.code : undefined;
  if (refused.status !== 400 || code !== ERROR_CODES.invalidParams)
    return failed(`expected 400 ${ERROR_CODES.invalidParams}: ${evidence("GET", unknown, refused)}`);
  const languages = languagesOf(ctx);
  if (!("other" in languages)) return languages;
  const both = bothAnswers("/v2/products?per_page=3", languages, (query) =>
    ctx.client.listProducts({ per_page: 3, ...query }),
  );
  if (!("asked" in both)) return both;
  const asked = titlesByUuid(both.asked);
  const english = titlesByUuid(both.english);
  const common = [...asked.keys()].filter((uuid) => english.has(uuid));
  if (common.length === 0)
    return notJudged(`the two pages share no item to compare: ${answerEvidence("GET", both.path, both.asked)}`);
  return common.some((uuid) => asked.get(uuid) !== english.get(uuid))
    ? passed
    : failed(
        `language=${languages.other}, but the items' titleTranslated is the English answer's: ${answerEvidence("GET", both.path, both.asked)}`,
      );
};

export const LANGUAGE_JUDGES: Record<string, Judge> = {
  "4.0-language-honoured": languageHonoured,
  "4.1-products-language": productsLanguage,
};
