// The esbuild options of servelab's Node bundle, shared by `npm run build` (scripts/build.mjs) and
// the start-up benchmark's Ink-only bundle (perf/startup.bench.ts), so the benchmark measures the
// same kind of bundle that ships.
export const NODE_BUNDLE = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // React's production build: no development checks in the shipped command (the in-process tests run the sources).
  define: { 'process.env.NODE_ENV': '"production"' },
  // Ink loads react-devtools-core only with DEV=true, and it is not a dependency.
  external: ['react-devtools-core'],
  // Some bundled CommonJS dependencies require() node built-ins; ESM output has no require.
  banner: { js: "import { createRequire as __servelabRequire } from 'node:module'; const require = __servelabRequire(import.meta.url);" },
};
