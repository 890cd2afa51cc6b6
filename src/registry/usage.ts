// Who uses a skill: the usedBy list of its index entry, which remove respects.
import { SkillsError } from '../errors.js';
import type { RegistryIndex } from '../formats/index-file.js';
import { notFound, readIndex } from './index-io.js';
import { updateIndex } from './update.js';

export interface UsageResult {
  id: string;
  usedBy: string[];
  /** False when the consumer was already (use) or not (unuse) in usedBy. */
  changed: boolean;
}

/** Add `consumer` to the skill's usedBy (`add`) or take it out; usedBy stays sorted, without duplicates. */
export async function changeUsage(dir: string, id: string, consumer: string, add: boolean): Promise<UsageResult> {
  const who = consumer.trim();
  if (who === '')
    throw new SkillsError('E_USAGE', '--for is empty: expected the id of the agent or project that uses the skill', {
      hint: `e.g. skills registry use ${id} --for content-creator`,
    });
  // A consumer is a name shown in lists and refusals: no control or formatting characters (a terminal's escapes, a
  // right-to-left override) go into the index.
  if (/[\p{Cc}\p{Cf}]/u.test(who))
    throw new SkillsError(
      'E_USAGE',
      `--for ${JSON.stringify(who)} holds a control or formatting character: expected the id of the agent or project that uses the skill`,
      { hint: `e.g. skills registry use ${id} --for content-creator` },
    );
  const find = (index: RegistryIndex) => {
    const entry = index.skills.find((s) => s.id === id);
    if (!entry) throw notFound(index, id);
    return entry;
  };
  find(readIndex(dir));
  let result: UsageResult | undefined;
  await updateIndex(dir, (index) => {
    const entry = find(index);
    const had = entry.usedBy.includes(who);
    const set = new Set(entry.usedBy);
    if (add) set.add(who);
    else set.delete(who);
    entry.usedBy = [...set].sort();
    result = { id, usedBy: entry.usedBy, changed: had !== add };
    return index;
  });
  return result!;
}

/** Record that `consumer` uses the skill (usedBy stays sorted, without duplicates). */
export function useSkill(dir: string, id: string, consumer: string): Promise<UsageResult> {
  return changeUsage(dir, id, consumer, true);
}

/** Record that `consumer` no longer uses the skill. */
export function unuseSkill(dir: string, id: string, consumer: string): Promise<UsageResult> {
  return changeUsage(dir, id, consumer, false);
}
