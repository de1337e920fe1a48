/**
 * The settings table (lib/harness/run-file/run-file-schema.ts) is where a setting's flag, environment mirror, parser
 * and default are declared; commander's options are made from it (scripts/setting-options.ts).
 */
import { describe, expect, it } from "vitest";
import { RUN_FILE_SETTINGS, settingCli, switchValue } from "../../lib/harness/run-file/run-file-schema.ts";
import { runCommand } from "../../scripts/run-command.ts";
import { settingOption } from "../../scripts/setting-options.ts";

describe("the settings table", () => {
  it("should give each setting of harness run one option, named after its key, with the table's mirror", () => {
    const options = runCommand().options;
    for (const setting of RUN_FILE_SETTINGS) {
      const { flag, env, cli } = settingCli(setting);
      const option = options.find((o) => o.long === flag);
      expect(option?.attributeName(), flag).toBe(setting);
      // A switch's mirror is read by switchValue, not commander.
      expect(option?.envVar, flag).toBe(cli.arg === undefined ? undefined : env);
    }
    expect(settingCli("baseUrl").env).toBe("HARNESS_BASE_URL");
    expect(settingCli("baselinesDir").env).toBe("HARNESS_BASELINES");
    expect(settingCli("containerEnv").env).toBeUndefined();
  });

  it("should make the same option for every command that takes a setting", () => {
    const run = runCommand().options.find((o) => o.long === "--profile");
    const alone = settingOption("profile");
    expect([alone.flags, alone.defaultValue, alone.envVar, alone.argChoices]).toEqual([
      run?.flags,
      run?.defaultValue,
      run?.envVar,
      run?.argChoices,
    ]);
    expect(alone.defaultValue).toBe("smoke");
  });

  it("should take a switch as given first, else its mirror as 1/true/yes/on or off", () => {
    expect(switchValue("churn", false, { HARNESS_CHURN: "1" })).toBe(false);
    expect(switchValue("churn", undefined, { HARNESS_CHURN: "yes" })).toBe(true);
    expect(switchValue("churn", undefined, { HARNESS_CHURN: "0" })).toBe(false);
    expect(switchValue("webhooks", undefined, { HARNESS_WEBHOOKS: " " })).toBeUndefined();
    expect(switchValue("allowSkips", undefined, {})).toBeUndefined();
  });
});
