// The reason a skipped test gives, appended to its title, so a run's report says what was missing
// (`describe.skipIf(why !== undefined)(`title${skipNote(why)}`, ...)`).
export const skipNote = (why: string | null | undefined | false): string => (why ? ` (skipped: ${why})` : '');
