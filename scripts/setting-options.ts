/**
 * Commander options made from the settings table (lib/harness/run-file/run-file-schema.ts): a flag, its help, its
 * HARNESS_* mirror, its parser, choices and default are written there once, and every command that takes a setting
 * (`harness run`, and `harness k8s` for --profile, --duration and --slo) gets the same option from here.
 */
import { Option } from "commander";
import { settingCli, type RunFileSetting } from "../lib/harness/run-file/run-file-schema.ts";

/** The setting's option (and, for a switch with a --no- form, that form after it). */
export function settingOptions(setting: RunFileSetting): Option[] {
  const { cli, flag, env, choices } = settingCli(setting);
  const option = new Option(cli.arg === undefined ? flag : `${flag} <${cli.arg}>`, cli.help);
  if (cli.parse) option.argParser(cli.parse as (value: string, previous: unknown) => unknown);
  if (choices) option.choices(choices);
  if (cli.default !== undefined) option.default(cli.default, cli.defaultText);
  // A switch's mirror is read by switchValue (commander would take HARNESS_CHURN=0 as on).
  if (env !== undefined && cli.arg !== undefined) option.env(env);
  if (cli.negate === undefined) return [option];
  return [option, new Option(`--no-${flag.slice(2)}`, cli.negate)];
}

/** One setting's option, for a command that takes it alone. */
export function settingOption(setting: RunFileSetting): Option {
  const [option] = settingOptions(setting);
  if (option === undefined) throw new Error(`no option for the setting ${setting}`);
  return option;
}
