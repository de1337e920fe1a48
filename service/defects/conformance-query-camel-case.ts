import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-query-camel-case",
  issue: 20,
  area: "conformance",
  description:
    "The OPTIONS self-description of a list names its query parameters in camelCase (perPage) although the list takes per_page.",
});

/** The defect's self-description: every parameter a GET method names, written in camelCase. */
export function camelCaseParameters(body: unknown): void {
  const data = (body as { data?: { methods?: { method: string; parameters: string[] }[] } }).data;
  for (const m of data?.methods ?? []) {
    if (m.method === "GET")
      m.parameters = m.parameters.map((p) => p.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
  }
}
