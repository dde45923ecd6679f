// Layering rules, checked by `npm test` (npm run layers). See README "Layout".
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
      comment: 'host launches processes and sits below engines: the caller passes engine rules in (launchServer opts.classify, opts.checkImage)',
      severity: 'error',
      from: { path: '^src/host/' },
      to: { path: '^src/engines/' },
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
    // Runtime imports only (what node loads): type-only imports vanish at build. The event contract
    // in src/core/events.ts names bench's metric types, while bench uses core's errors and logger;
    // that type-level link is allowed, a runtime cycle is not.
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
