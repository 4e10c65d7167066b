/** A usage problem of an admin command: the message and the usage are printed, exit code 2. */
export class UsageError extends Error {}
