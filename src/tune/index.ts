// The tuning core's public surface, for the front ends (headless --auto, the TUI) and replay.
export { runSession, planSession, readRunConfig, SessionControl, type SessionOptions, type SessionOutcome } from './session.js';
export { runVariant, runVariantScenarios, AbortedError, scenarioKey, type RunVariantContext } from './runner.js';
export { buildPlan, expandStage, CAVEATS, type Plan, type PlanStage, type PlannedVariant, type Predicted } from './plan.js';
export { parseAutoArgs, AUTO_USAGE, AUTO_FLAGS, type AutoOptions } from './args.js';
export { STAGES, STAGE_TITLES, DEFAULT_SIM_SPEED, DEFAULT_READY_TIMEOUT_S, DEFAULT_SIM_READY_TIMEOUT_S, type SessionConfig, type StageName } from './config.js';
export { decideStage, objectiveValue, dollarsPerMillionTokens, OBJECTIVES, type Objective } from './decide.js';
export { parseSlo, formatSlo, sloViolations, type SloRule } from './slo.js';
export { studyScenarios, parseScenario, sharegptScenario, type Scenario } from './scenarios.js';
export { validationTable, pickBaseline, type ValidationRow } from './validate.js';
export { Journal, writeFileAtomic, defaultRunDir } from './journal.js';
