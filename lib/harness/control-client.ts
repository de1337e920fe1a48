/**
 * The harness's client of the test hooks is HooksClient (lib/harness/hooks/hooks-client.ts), built on the published
 * contract. This name stays only while the targets move over to it; new code imports HooksClient.
 */
export { HooksClient as ControlClient } from "./hooks/hooks-client.ts";
