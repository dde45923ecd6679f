// Layering rules, checked by `npm test` (npm run layers). See docs/architecture.md, "How the layering is enforced".
// The core folders run headless and in sim-serve processes: they must never pull in Ink/React or
// the front end. Folders must not import each other in a circle (a cycle means neither folder can
// be understood, tested or moved alone).
const CORE = '^src/(core|bench|engines|host|tune|model|sim|profiles|sweep|capacity|quality)/';
const FRONT_END = '^src/(app\\.tsx|screens/|tui/)';

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
      comment: 'core folders never import the TUI (src/app.tsx, ui, screens, components, tui)',
      severity: 'error',
      from: { path: CORE },
      to: { path: FRONT_END },
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
      name: 'slurm-through-index',
      comment: 'src/host/slurm is entered through its index.ts only: the Slurm runtime is one unit with one public surface',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/host/slurm/' },
      to: { path: '^src/host/slurm/', pathNot: '^src/host/slurm/index\\.ts$' },
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
        'the concept folders of src/tune (config, cost, decide, launch, plan, run, context, stage, sweep, session, replay, cli, workbench) import each other one way only',
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
