/** A command's refusal that is the user's mistake: main prints its message and exits 1, without a stack. */
export class CliError extends Error {}
