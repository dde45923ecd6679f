// What host/process.ts launchServer needs from the engines, passed in by its callers (host sits
// below engines and never imports them): the failure rules and the docker image check.
import type { Failure } from '../core/events.js';
import type { ExitInfo } from '../host/launch-spec.js';
import { assertImageExists } from './kit/detect.js';
import { classifyFromLog } from './failures.js';

export interface EngineLaunchHooks {
  classify: (lines: string[], exit: ExitInfo) => Failure;
  checkImage: (image: string) => Promise<void>;
}

/** The failure rules of every engine, for a launch whose engine the caller does not pin down. */
export const classifyAnyEngine = (lines: string[], exit: ExitInfo): Failure => classifyFromLog(undefined, lines, exit);

/** launchServer's engine hooks: the given classifier (an adapter's, with its context) or all engines' rules. */
export function engineLaunchHooks(classify: EngineLaunchHooks['classify'] = classifyAnyEngine): EngineLaunchHooks {
  return { classify, checkImage: (image) => assertImageExists(image) };
}
