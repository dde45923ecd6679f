// The floors of src/, written once: .dependency-cruiser.cjs turns them into its `forbidden` rules
// (a folder imports only folders on lower floors, type imports included), and
// test/unit/layout/floors.test.ts checks that the floors table of docs/architecture.md says the same.
// A folder is a top-level entry of src/ with everything under it (model/calibration is model), so
// two folders cannot import each other through different sub-folders, and a new folder must be
// placed here before anything may import it or it may import anything.
// CommonJS because dependency-cruiser loads its config with require().

/** floor -> top-level entries of src/ (folders, or the two root files). */
const FLOORS = [
  { floor: 0, folders: ['core'] },
  { floor: 1, folders: ['gguf', 'sweep'] },
  { floor: 2, folders: ['model', 'bench'] },
  // host is handed the engine's failure rules by its callers (launchServer opts.classify, opts.checkImage).
  { floor: 3, folders: ['host', 'capacity', 'quality'] },
  { floor: 4, folders: ['engines'] },
  { floor: 5, folders: ['profiles'] },
  { floor: 6, folders: ['sim'] },
  { floor: 7, folders: ['tune'] },
  // The command line's front end (argv, usage, headless text). The Ink front end never imports it
  // (the tui-not-cli rule): what both show lives below them, e.g. tune/request's flag rules.
  { floor: 8, folders: ['cli'] },
  { floor: 9, folders: ['tui'] },
  { floor: 10, folders: ['screens'] },
  { floor: 11, folders: ['commands'] },
  { floor: 12, folders: ['cli.tsx'] },
];

/** The first floor of the Ink front end: everything below runs headless (no ink, no react). */
const FIRST_INK_FLOOR = 9;

/** The concept folders of src/tune, which import each other downwards only. */
const TUNE_FLOORS = [
  { floor: 0, folders: ['config', 'cost', 'decide'] },
  { floor: 1, folders: ['launch'] },
  { floor: 2, folders: ['plan'] },
  { floor: 3, folders: ['budget', 'run'] },
  { floor: 4, folders: ['context'] },
  { floor: 5, folders: ['stage'] },
  { floor: 6, folders: ['sweep'] },
  { floor: 7, folders: ['session', 'replay', 'request'] },
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Path regex for entries under `base` (a folder with anything below it, or a root file). */
const under = (base, names) => `^${escape(base)}(${names.map(escape).join('|')})(/|$)`;

/** One rule per entry: it may not import an entry on its own floor or above. */
function floorRules(floors, base, prefix) {
  const all = floors.flatMap((f) => f.folders.map((name) => ({ name, floor: f.floor })));
  return all.map(({ name, floor }) => {
    const upward = all.filter((o) => o.floor >= floor && o.name !== name).map((o) => o.name);
    return {
      name: `${prefix}${name}`,
      comment: `${base}${name} (floor ${floor}) imports only folders on lower floors (scripts/floors.cjs, docs/architecture.md)`,
      severity: 'error',
      from: { path: under(base, [name]) },
      to: { path: upward.length ? under(base, upward) : '^$' },
    };
  });
}

/** Every placed entry of src/, and the rules that keep an unplaced one from importing or being imported. */
function placementRules() {
  const placed = under(
    'src/',
    FLOORS.flatMap((f) => f.folders),
  );
  const comment = 'every top-level entry of src/ has a floor in scripts/floors.cjs (and a row in docs/architecture.md)';
  return [
    { name: 'floor-unplaced-importer', comment, severity: 'error', from: { path: '^src/', pathNot: placed }, to: {} },
    { name: 'floor-unplaced-imported', comment, severity: 'error', from: { path: '^src/' }, to: { path: '^src/', pathNot: placed } },
  ];
}

function dependencyRules() {
  return [...floorRules(FLOORS, 'src/', 'floor-'), ...floorRules(TUNE_FLOORS, 'src/tune/', 'tune-floor-'), ...placementRules()];
}

/** Path regex of the folders below the Ink front end. */
const HEADLESS = under(
  'src/',
  FLOORS.filter((f) => f.floor < FIRST_INK_FLOOR).flatMap((f) => f.folders),
);

module.exports = { FLOORS, TUNE_FLOORS, FIRST_INK_FLOOR, HEADLESS, dependencyRules };
