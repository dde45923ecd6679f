// Layering rules, checked by `npm test` (npm run layers). See docs/architecture.md, "How the layering is enforced".
// The core folders run headless and in sim-serve processes: they must never pull in Ink/React or
// the front end. Folders must not import each other in a circle (a cycle means neither folder can
// be understood, tested or moved alone). The two front ends stand apart: src/cli (argv, usage,
// headless text) and the Ink TUI (src/tui, src/screens, src/app.tsx) share only what lies below them.
const CORE = '^src/(core|bench|engines|host|tune|model|sim|profiles|sweep|capacity|quality)/';
const INK = '^src/(app\\.tsx|screens/|tui/)';
const FRONT_END = '^src/(app\\.tsx|screens/|tui/|cli/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-not-ink',
      comment: 'core folders never import ink or react (they run headless and in sim-serve)',
      severity: 'error',
      from: { path: CORE },
      to: { path: '(^|/)node_modules/(ink|react|react-dom|ink-testing-library)/' },
    },
    {
      name: 'core-not-front-end',
      comment:
        'core folders never import a front end: the TUI (src/app.tsx, screens, tui) or the command line (src/cli: argv, usage, headless text)',
      severity: 'error',
      from: { path: CORE },
      to: { path: FRONT_END },
    },
    {
      name: 'tui-not-cli',
      comment:
        "the Ink front end never imports the command line's argv parsing, usage or headless text (src/cli); what both show lives below them",
      severity: 'error',
      from: { path: INK },
      to: { path: '^src/cli/' },
    },
    {
      name: 'host-not-engines',
      comment:
        'host launches processes and sits below engines: the caller passes engine rules in (launchServer opts.classify, opts.checkImage)',
      severity: 'error',
      from: { path: '^src/host/' },
      to: { path: '^src/engines/' },
    },
    {
      name: 'no-module-cycles',
      comment:
        'no file imports itself through others, type imports included: a contract lives below the files that use it (e.g. src/tune/plan/types.ts, src/tune/run/types.ts)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-tune-folder-cycles',
      comment:
        'the concept folders of src/tune (config, cost, decide, budget, launch, plan, run, context, stage, sweep, session, replay, request) import each other one way only',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/tune/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'top-level folders of src/ must not import each other in a circle (inside one folder, e.g. the TUI kit, sub-folders may)',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+$' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type imports count too: a type-only cycle is the same design smell (a contract declared in the
    // file that uses it most) even though it vanishes at build.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
