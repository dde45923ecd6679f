// docs/engines.md, generated from the knob tables, the known versions, the reference flag lists
// and the failure corpus (scripts/docs-engines.ts writes it; a test checks the committed copy).
import { readdirSync, readFileSync } from 'node:fs';
import { ENGINE_LABEL, ENGINES } from '../core/variant.js';
import { CORPUS } from './corpus.js';
import { FAILURE_RULES } from './failure-rules.js';
import { NEUTRAL_KNOBS } from './data/knobs.js';
import { engineRows, rowsAt } from './table.js';
import type { KnobRow } from './data/knob-row.js';
import { KNOWN_VERSIONS } from './data/versions.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function values(r: KnobRow): string {
  if (!r.values) return 'as given';
  return Object.entries(r.values)
    .map(([k, v]) => (k === v ? `\`${k}\`` : `\`${k}\`→\`${v}\``))
    .join(', ');
}

function range(r: KnobRow): string {
  if (r.since && r.until) return `${r.since} ≤ v < ${r.until}`;
  if (r.since) return `≥ ${r.since}`;
  if (r.until) return `< ${r.until}`;
  return 'all known';
}

function engineSection(engine: (typeof ENGINES)[number]): string[] {
  const out = [`## ${ENGINE_LABEL[engine]}`, ''];
  out.push('Known releases (an installed version without its own table uses the nearest older one, and the plan says so):', '');
  for (const k of KNOWN_VERSIONS[engine]) {
    out.push(
      `- **${k.version}**: ${k.source}${k.readAt ? `. *Read at ${k.readAt}: not every fact could be read at this release, so servelab reads the installed engine's own help before launching (src/engines/kit/help-check.ts).*` : ''}`,
    );
  }
  out.push('', ...changedSince(engine));
  out.push('', '| knob | via | spelling | values (neutral→engine) | holds for | source | note |', '|---|---|---|---|---|---|---|');
  for (const r of engineRows(engine)) {
    out.push(
      `| \`${r.knob}\` | ${r.via} | \`${cell(r.name)}\` | ${cell(values(r))} | ${range(r)} | ${cell(r.source)} | ${cell(r.note ?? '')} |`,
    );
  }
  const versions = KNOWN_VERSIONS[engine].map((k) => k.version);
  const knobs = [...new Set(engineRows(engine).map((r) => r.knob))];
  out.push('', 'Spelling by release:', '', `| knob | ${versions.join(' | ')} |`, `|---|${versions.map(() => '---|').join('')}`);
  for (const knob of knobs) {
    const at = versions.map((v) => {
      const r = rowsAt(engine, v).find((x) => x.knob === knob);
      return r ? `\`${cell(r.name)}\`${r.values ? ` (${cell(values(r))})` : ''}` : '—';
    });
    out.push(`| \`${knob}\` | ${at.join(' | ')} |`);
  }
  for (const k of KNOWN_VERSIONS[engine]) {
    const rows = rowsAt(engine, k.version).filter((r) => r.candidates);
    const planned = rows.map((r) => `${r.knob}: ${r.candidates!.join(', ')}`).join('; ');
    out.push('', `Planner candidates at ${k.version}: ${planned || 'none'}.`);
  }
  out.push('');
  return out;
}

const spelled = (r: KnobRow | undefined) =>
  r ? `${r.via} \`${cell(r.name)}\`${r.values ? ` (${cell(values(r))})` : ''}` : 'not expressible';

/** Per knob, what differs between the oldest table (the studies' release) and the newest (today's). */
function changedSince(engine: (typeof ENGINES)[number]): string[] {
  const known = KNOWN_VERSIONS[engine];
  const [from, to] = [known[0]!.version, known.at(-1)!.version];
  if (from === to) return [];
  const knobs = [...new Set(engineRows(engine).map((r) => r.knob))];
  const lines = knobs.flatMap((knob) => {
    const a = rowsAt(engine, from).find((r) => r.knob === knob);
    const b = rowsAt(engine, to).find((r) => r.knob === knob);
    if (spelled(a) === spelled(b)) return [];
    return [`- \`${knob}\`: ${spelled(a)} → ${spelled(b)}${b ? ` (${cell(b.source)})` : ''}`];
  });
  return [
    `What changed between ${from} (the studies' release) and ${to} (today's):`,
    '',
    ...(lines.length ? lines : ['- nothing servelab emits (the facts were carried forward; see the note on each release above)']),
    '',
  ];
}

function flagListSection(dir: string): string[] {
  const out = [
    '## Reference flag lists',
    '',
    'Checked by test/process/engines/flag-lists.test.ts against every command the planner can emit.',
    '',
  ];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const l = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { engine: string; version: string; source: { files: string[] } };
    out.push(`- \`src/engines/data/flags/${f}\` (${l.engine} ${l.version}): ${l.source.files.join('; ')}`);
  }
  const how = JSON.parse(readFileSync(`${dir}/vllm-0.11.0.json`, 'utf8')) as { source: { how: string } };
  out.push('', `How: ${how.source.how}`, '');
  return out;
}

function corpusSection(): string[] {
  const out = [
    '## Failure texts',
    '',
    `${CORPUS.length} real engine texts in src/engines/data/corpus.json; ${FAILURE_RULES.length} classifier rules (src/engines/failure-rules.ts).`,
    '',
  ];
  out.push('| id | engine | classified as | source |', '|---|---|---|---|');
  for (const e of CORPUS) out.push(`| ${e.id} | ${e.engine} | ${e.expect ?? '(start-up line)'} | ${cell(e.source)} |`);
  out.push('');
  return out;
}

/**
 * The engine reference as pages, by path under docs/: engines.md (the neutral knobs, unread
 * releases, reference flag lists and failure texts, with a link to each engine) and
 * engines/<engine>.md (one engine's releases, what changed and its knob table), so no page runs
 * to hundreds of lines.
 */
export function renderEnginesDocs(flagsDir: string): Record<string, string> {
  const out = [
    '# Engines: knobs, versions and failure texts',
    '',
    '<!-- Generated by `npx tsx scripts/docs-engines.ts` from src/engines/data; do not edit by hand. -->',
    '',
    'Every engine fact below names the file and release (or commit) it was read from; the failure texts are',
    'quoted in src/engines/data/corpus.json. Neutral knobs (what a servelab variant says):',
    '',
    '| knob | sim-serve flag | meaning |',
    '|---|---|---|',
    ...NEUTRAL_KNOBS.map((n) => `| \`${n.knob}\` | \`${n.simFlag}\` | ${cell(n.meaning)} |`),
    '| `speculative` | `--speculative METHOD` ... | method, steps, topk, draft tokens, draft model |',
    '',
    '## Releases servelab has not read',
    '',
    'An installed release uses the newest table not newer than it. When that release is newer than every table,',
    "or its table was read at neighbouring releases (marked below), servelab runs the engine's own help once per",
    'session before launching anything (`vllm serve --help=all`, `python3 -m sglang.launch_server --help`,',
    '`trtllm-serve serve --help`), keeps it in the run folder (`engine-help/`), and refuses, with one line naming',
    'the flag and the release, every planned command with a flag that help does not list (src/engines/kit/help-check.ts).',
    'On the simulated host `--engine-version vllm=0.33.0` rehearses a release: its spellings and start-up lines.',
    '',
  ];
  out.push('## Each engine', '', ...ENGINES.map((e) => `- [${ENGINE_LABEL[e]}](engines/${e}.md): releases, what changed, knob table`), '');
  out.push(...flagListSection(flagsDir), ...corpusSection());
  const pages: Record<string, string> = { 'engines.md': out.join('\n') };
  for (const e of ENGINES) {
    const [heading, ...rest] = engineSection(e);
    pages[`engines/${e}.md`] = [
      `# ${heading!.replace(/^## /, '')}: knobs and releases`,
      '',
      '<!-- Generated by `npx tsx scripts/docs-engines.ts` from src/engines/data; do not edit by hand. -->',
      '',
      'Part of [the engine reference](../engines.md), which lists the neutral knobs, the reference flag lists and the failure texts.',
      ...rest,
      '',
    ].join('\n');
  }
  return pages;
}
