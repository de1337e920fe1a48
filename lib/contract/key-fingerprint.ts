/**
 * How an API key is shown anywhere a person reads it (terminal, logs, reports): its last four characters, enough to
 * tell keys apart and never enough to use one. A key of eight characters or fewer shows nothing of itself.
 */
export function keyFingerprint(key: string): string {
  return key.length > 8 ? `…${key.slice(-4)}` : "…";
}
