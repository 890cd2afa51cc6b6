// What the rules about a manifest's environment variables share: what a variable name is. (How a .env file assigns
// one is formats/dotenv.ts.)

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `v` is a name a variable can have (letters, digits and _, not starting with a digit). */
export function isEnvName(v: unknown): v is string {
  return typeof v === 'string' && ENV_NAME.test(v);
}
