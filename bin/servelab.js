#!/usr/bin/env node
// Entry point: run the TypeScript sources through tsx's loader, so `npx servelab` works on a
// fresh clone after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.tsx');
