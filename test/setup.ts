// Ink treats CI=true specially (lastFrame() becomes a bare newline), so tests render
// frames the same way under CI as locally.
delete process.env.CI;
delete process.env.CONTINUOUS_INTEGRATION;
