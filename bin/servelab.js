#!/usr/bin/env node
// Runs servelab from the TypeScript sources through tsx's loader: what the tests and a developer
// editing src/ use (`npm run dev -- ARGS`). The installed command is the build, dist/cli.js
// (package.json "bin"); src/core/self.ts picks this file or dist/cli.js to re-invoke servelab.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.tsx');
