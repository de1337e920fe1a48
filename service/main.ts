/**
 * The process contract: `node service/main.ts [flags]` (see docs/service.md). Prints exactly one JSON line on
 * stdout once both listeners are up; bad flags exit 2 with one line on stderr; SIGTERM/SIGINT exit 0 within 2 s.
 */
import { createService, ListenError } from "./app.ts";
import { KeysFileError } from "./keys-file.ts";
import { OptionsError, parseServiceArgs } from "./options.ts";

async function main(): Promise<void> {
  let options;
  try {
    options = parseServiceArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof OptionsError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  let service;
  try {
    service = await createService(options);
  } catch (error) {
    if (error instanceof ListenError) {
      process.stderr.write(
        `Failed to start the service: ${error.message}. Please pick other ports (--port, --control-port; 0 picks a free one) or stop the process that holds them.\n`,
      );
      process.exit(1);
    }
    if (error instanceof KeysFileError) {
      process.stderr.write(
        `Failed to start the service: ${error.message}. Please give --keys-file a path in a directory that exists and can be written.\n`,
      );
      process.exit(1);
    }
    throw error;
  }
  const started = service;
  process.stdout.write(`${JSON.stringify({ event: "listening", api: started.apiUrl, control: started.controlUrl })}\n`);
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 1500).unref();
    void started.stop().then(() => process.exit(0));
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start the service: ${error instanceof Error ? error.message : String(error)}. Please report this with the command line used.\n`,
  );
  process.exit(1);
});
