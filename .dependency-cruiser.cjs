// Layering rules, checked by `npm test` (npm run layers). See docs/architecture.md, "How the layering is enforced".
// The floors of src/ and of src/tune are written once, in scripts/floors.cjs; the rules below are
// generated from them (a folder imports only folders on lower floors, type imports included).
// The headless floors run in sim-serve processes too: they must never pull in Ink/React. Files and
// folders must not import each other in a circle (a cycle means neither can be understood, tested
// or moved alone).
const { HEADLESS, dependencyRules } = require('./scripts/floors.cjs');
const INK = '^src/(screens|tui)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...dependencyRules(),
    {
      name: 'core-not-ink',
      comment: 'the floors below the Ink front end never import ink or react (they run headless and in sim-serve)',
      severity: 'error',
      from: { path: HEADLESS },
      to: { path: '(^|/)node_modules/(ink|react|react-dom|ink-testing-library)/' },
    },
    {
      name: 'product-not-lab',
      comment:
        'the product never imports the tests, the benchmarks, the model lab or the scripts: what it needs at run time lives in src (e.g. the failure corpus in src/engines/data)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|perf|model-lab|scripts)/' },
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
      name: 'slurm-through-index',
      comment: 'src/host/slurm is entered through its index.ts only: the Slurm runtime is one unit with one public surface',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/host/slurm/' },
      to: { path: '^src/host/slurm/', pathNot: '^src/host/slurm/index\\.ts$' },
    },
    {
      name: 'no-module-cycles',
      comment:
        'no file imports itself through others, type imports included: a contract lives below the files that use it (e.g. src/tune/plan/types.ts, src/tune/run/contract/types.ts)',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-sub-folder-cycles',
      comment:
        'the concept sub-folders of src/bench (http, datasets, metrics, load, workers, output), src/profiles (schema, safety, report, store, export) and src/sim (scheduler, imitation, predict, server, multinode) import each other one way only',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/(bench|profiles|sim)/[^/]+$' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        "no folder of src/ imports itself through others, each sub-folder counted apart (src/model and src/model/calibration are two): a folder's contract and shared pieces live in a folder below the files that use them (e.g. src/tui/base, src/tune/run/contract)",
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
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
