// The by-hand webhook registration of a run without test hooks, as a person would script it for their own
// deployment: `harness run ... --webhook-register-cmd "node test/data/register-webhook.ts <control-url> <token>"`.
// The harness runs it once per key with HARNESS_WEBHOOK_API_KEY, HARNESS_WEBHOOK_URL and HARNESS_WEBHOOK_SECRET;
// only this script knows the reference service's control API, the harness does not.
const [controlUrl, token] = process.argv.slice(2);
const { HARNESS_WEBHOOK_API_KEY: apiKey, HARNESS_WEBHOOK_URL: url, HARNESS_WEBHOOK_SECRET: secret } = process.env;
if (!controlUrl || !token || !apiKey || !url || !secret) {
  console.error("usage: register-webhook.ts <control-url> <token>, with HARNESS_WEBHOOK_API_KEY, _URL and _SECRET set");
  process.exit(2);
}
const res = await fetch(`${controlUrl}/__control/partners/${encodeURIComponent(apiKey)}`, {
  method: "PUT",
  headers: { "X-Control-Token": token, "Content-Type": "application/json" },
  body: JSON.stringify({ webhookUrl: url, webhookSecret: secret }),
});
if (!res.ok) {
  console.error(`registration answered ${res.status}: ${await res.text()}`);
  process.exit(1);
}
