// llama-server's `--help` text (generated from common/arg.cpp) as a flag list: every option with
// its aliases, whether it takes a value, and the choices its help names ([a|b], {a,b}, "allowed
// values: ..."). scripts/llamacpp-flags.ts writes the result to src/engines/data/flags.

export interface HelpFlag {
  aliases?: string[];
  choices?: string[];
  bool?: boolean;
}

/** A separator made of dashes only ("-----"), as in the help's banners, is not an option name. */
const DASHES_ONLY = /^-+,?$/;

/** The option column of a help line: names ("-fa,   --flash-attn") and the value word after them. */
function optionColumn(line: string): { names: string[]; value: string } {
  const names: string[] = [];
  let value = '';
  let comma = true;
  let gap = '';
  for (const m of line.matchAll(/(\S+)(\s*)/g)) {
    const w = m[1]!;
    if (comma && w.startsWith('-') && !DASHES_ONLY.test(w)) {
      names.push(w.replace(/,$/, ''));
      comma = w.endsWith(',');
    } else if (!comma && gap === ' ' && !w.startsWith('-')) {
      value = w;
      break;
    } else break;
    gap = m[2]!;
    if (!comma && gap.length > 1) break;
  }
  return { names, value };
}

export function parseLlamaHelp(help: string): Record<string, HelpFlag> {
  const flags: Record<string, HelpFlag> = {};
  let last: HelpFlag | undefined;
  for (const line of help.split('\n')) {
    if (!line.startsWith('-')) {
      const allowed = /allowed values: ([\w, ]+)/.exec(line);
      if (allowed && last)
        last.choices = allowed[1]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
      continue;
    }
    const { names, value } = optionColumn(line);
    if (!names.length) continue;
    const primary = names.find((n) => n.startsWith('--')) ?? names[0]!;
    const e: HelpFlag = {};
    const aliases = names.filter((n) => n !== primary);
    if (aliases.length) e.aliases = aliases;
    if (!value) e.bool = true;
    const choice = /^\[([\w|-]+)\]$|^\{([\w,-]+)\}$|^([\w-]+(?:,[\w-]+){2,})$/.exec(value);
    if (choice) e.choices = (choice[1] ?? choice[2] ?? choice[3])!.split(/[|,]/);
    flags[primary] = e;
    last = e;
  }
  return flags;
}
