/**
 * The judges of `language` (lib/k6/conformance/language-rules.ts) against a small service behind the k6 shims: the
 * content must follow the language asked for, whatever its script or marking (a translation in Latin script without a
 * "[de]" marker passes), a service that ignores the parameter fails, an unknown code must be refused, and a service
 * with one language is not judged by design.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../lib/k6/client.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import {
  sendRaw,
  type ConformanceContext,
  type FoundProductType,
  type RawAnswer,
  type RawRequest,
} from "../../lib/k6/conformance/judge.ts";
import { LANGUAGE_JUDGES } from "../../lib/k6/conformance/language-rules.ts";
import { k6State, type ShimResponse } from "../shims/k6-state.ts";

const BASE = "http://svc.test";
const KEY = "key-1";
const PRODUCT = "11111111-1111-4111-8111-111111111111";
const TYPE = "22222222-2222-4222-8222-222222222222";
const TITLE = "Hong Kong National Museum Ticket";

/** How the service renders content in a language other than English. */
type Rendering = "marked" | "latin" | "plain-string" | "english-ignored" | "english-under-code";

const service = {
  rendering: "marked" as Rendering,
  languages: ["en", "de"],
  unknownAccepted: false,
  listIgnoresLanguage: false,
};

function json(status: number, body: unknown): ShimResponse {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const links = (path: string) => [{ rel: "self", href: path, method: "GET" }];

function refused(path: string): ShimResponse {
  return json(400, {
    error: { code: "invalid_params", message: "no such language", http_code: 400 },
    links: links(path),
    timestamp: "2030-01-01T00:00:00.000Z",
  });
}

/** A *Translated value in `language`, as the service renders it. */
function translated(text: string, language: string, ignore: boolean): unknown {
  if (language === "en" || ignore || service.rendering === "english-ignored") return { en: text };
  switch (service.rendering) {
    case "marked":
      return { [language]: `[${language}] ${text}` };
    case "latin":
      // A letter shift: Latin script, nothing that names the language.
      return { [language]: text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 96) % 26) + 97)) };
    case "plain-string":
      return `${text} (${language.length} letters)`;
    default:
      return { [language]: text };
  }
}

function respond(method: string, url: string): ShimResponse {
  const { pathname: path, searchParams: query } = new URL(url);
  const asked = query.get("language") ?? "en";
  const known = service.languages.includes(asked);
  if (path === "/v2/config") return json(200, { data: { languages: service.languages }, links: links(path) });
  if (!known && !service.unknownAccepted) return refused(path);
  const language = known ? asked : "en";
  if (path === `/v2/products/${PRODUCT}`) {
    const data = {
      uuid: PRODUCT,
      title: TITLE,
      titleTranslated: translated(TITLE, language, false),
      links: links(path),
    };
    return json(200, { data, links: links(path) });
  }
  if (path === "/v2/products") {
    const items = [PRODUCT, TYPE].map((uuid, i) => ({
      uuid,
      titleTranslated: translated(`${TITLE} ${i}`, language, service.listIgnoresLanguage),
    }));
    const pagination = { total: 2, count: 2, per_page: 3, current_page: 1, total_pages: 1 };
    return json(200, { data: items, meta: { pagination }, links: links(path) });
  }
  return json(404, { error: { code: "not_found", message: method, http_code: 404 }, links: links(path) });
}

function raw(request: RawRequest): RawAnswer {
  return sendRaw(BASE, KEY, request);
}

const TYPE_FOUND: FoundProductType = {
  uuid: TYPE,
  productUuid: PRODUCT,
  available: true,
  timeslots: [],
  instantConfirmation: true,
  daysInAdvance: 0,
  minPax: 1,
  maxPax: 10,
  categories: ["adults"],
  requiredOptions: [],
  timeslotted: false,
};

function context(): ConformanceContext {
  const client = new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    timeout: "5s",
    phase: "setup",
    onThrottle: "return",
    maxThrottleWaitSeconds: 1,
  });
  const config = loadConfig({ ATD_BASE_URL: BASE, ATD_API_KEYS: KEY });
  return { config, client, raw, productTypes: [TYPE_FOUND], probeDate: "2030-01-07", hooks: false };
}

const judge = (id: string) => LANGUAGE_JUDGES[id]?.(context());
const PASSED = { problem: undefined };

beforeEach(() => {
  k6State.reset();
  k6State.handler = (method, url) => respond(method, url);
  Object.assign(service, {
    rendering: "marked",
    languages: ["en", "de"],
    unknownAccepted: false,
    listIgnoresLanguage: false,
  });
});

describe("the judges of language", () => {
  it.each(["marked", "latin", "plain-string"] as const)(
    "should pass content that follows the language, rendered %s",
    (rendering) => {
      service.rendering = rendering;
      expect(judge("4.0-language-honoured")).toEqual(PASSED);
      expect(judge("4.1-products-language")).toEqual(PASSED);
    },
  );

  it.each(["english-ignored", "english-under-code"] as const)(
    "should fail a detail that answers English text whatever language is asked for (%s), with evidence",
    (rendering) => {
      service.rendering = rendering;
      expect(judge("4.0-language-honoured")).toEqual({
        problem: expect.stringMatching(
          /^language=de, but its translated content \(titleTranslated\) is the English answer's: GET \/v2\/products\/\S+\?language=de -> 200/,
        ) as string,
      });
    },
  );

  it("should fail a products list that ignores the language, and one that accepts an unknown code", () => {
    service.listIgnoresLanguage = true;
    expect(judge("4.1-products-language")).toEqual({
      problem: expect.stringMatching(
        /the items' titleTranslated is the English answer's: GET \/v2\/products\?per_page=3&language=de/,
      ) as string,
    });
    service.listIgnoresLanguage = false;
    service.unknownAccepted = true;
    expect(judge("4.1-products-language")).toEqual({
      problem: expect.stringMatching(
        /^expected 400 invalid_params: GET \/v2\/products\?per_page=1&language=zz -> 200/,
      ) as string,
    });
  });

  it("should not judge by design where the config lists no language besides en, the unknown code still judged", () => {
    service.languages = ["en"];
    expect(judge("4.0-language-honoured")).toEqual({
      notJudged: expect.stringMatching(/^GET \/v2\/config lists no language besides en/) as string,
      byDesign: true,
    });
    expect(judge("4.1-products-language")).toMatchObject({ byDesign: true });
    service.unknownAccepted = true;
    expect(judge("4.1-products-language")).toEqual({ problem: expect.stringMatching(/language=zz/) as string });
  });

  it("should compare two languages the config lists where it does not list en", () => {
    service.languages = ["de", "fr"];
    expect(judge("4.0-language-honoured")).toEqual(PASSED);
    expect(k6State.requests.map((r) => new URL(r.url).search)).toEqual(["", "?language=fr", "?language=de"]);
  });
});
