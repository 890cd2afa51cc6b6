import { isSkillsError, type SkillsError } from '../../src/errors.js';

/** The SkillsError a promise (or a call) fails with; any other outcome fails the test. */
export async function caught(p: Promise<unknown> | (() => unknown)): Promise<SkillsError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (isSkillsError(err)) return err;
    throw err;
  }
  throw new Error('expected a SkillsError');
}
