/**
 * The published OpenAPI documents the service serves: the partner API's on the API listener, the test hooks' on the
 * control listener. Built from lib/contract (not read from docs/*.yaml), so the bundled image serves them too; built
 * at first request and kept as JSON text.
 */
import { partnerApiDocument, testHooksDocument } from "../lib/contract/openapi.ts";
import type { Reply } from "./http.ts";

let partnerApi: string | undefined;
let testHooks: string | undefined;

export function partnerApiDocumentReply(): Reply {
  partnerApi ??= JSON.stringify(partnerApiDocument());
  return { status: 200, body: partnerApi, contentType: "application/json" };
}

export function testHooksDocumentReply(): Reply {
  testHooks ??= JSON.stringify(testHooksDocument());
  return { status: 200, body: testHooks, contentType: "application/json" };
}
