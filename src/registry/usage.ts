// Who uses a skill: the usedBy list of its index entry, which remove respects.
import { isAbsolute } from 'node:path';
import { SkillsError } from '../errors.js';
import { CONSUMER_RULE, consumerProblem, quoteConsumer } from '../model/consumer.js';
import { present } from '../fs/walk.js';
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
  // A consumer is a name shown in lists and refusals. One already recorded (before consumers were checked) can
  // still be taken out.
  const problem = add || /[\p{Cc}\p{Cf}]/u.test(who) ? consumerProblem(who) : undefined;
  if (problem) throw consumerError(who, problem);
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

/**
 * Record that `consumer` uses each of `ids` (an id the index does not have is passed over): one index write, and
 * none when each already has it.
 */
export async function useSkills(dir: string, ids: readonly string[], consumer: string): Promise<void> {
  const wanted = new Set(ids);
  const lacking = (index: RegistryIndex) =>
    index.skills.filter((e) => wanted.has(e.id) && !e.usedBy.includes(consumer));
  if (lacking(readIndex(dir)).length === 0) return;
  await updateIndex(dir, (index) => {
    for (const e of lacking(index)) e.usedBy = [...e.usedBy, consumer].sort();
    return index;
  });
}

/** Whether a skill of the registry in `dir` is used by `consumer` (a registry with no index yet has none). */
export function knownConsumer(dir: string, consumer: string): boolean {
  return readIndex(dir).skills.some((e) => e.usedBy.includes(consumer));
}

/** A consumer that is a project (the absolute path of its folder, as install records it) whose folder is gone. */
export function goneProject(consumer: string): boolean {
  return isAbsolute(consumer) && !present(consumer);
}

/**
 * Take `consumers` out of the skill's usedBy, with every project in it whose folder is gone (it keeps no copy
 * alive); returns the consumers left. No index write when none of them is there.
 */
export async function releaseSkill(dir: string, id: string, consumers: readonly string[]): Promise<string[]> {
  const leaves = (c: string) => consumers.includes(c) || goneProject(c);
  const entryOf = (index: RegistryIndex) => index.skills.find((s) => s.id === id);
  const now = entryOf(readIndex(dir));
  if (!now || !now.usedBy.some(leaves)) return now?.usedBy ?? [];
  let left: string[] = [];
  await updateIndex(dir, (index) => {
    const entry = entryOf(index);
    if (entry) left = entry.usedBy = entry.usedBy.filter((c) => !leaves(c));
    return index;
  });
  return left;
}

/** The refusal of a consumer that breaks the rule (model/consumer.ts). */
export function consumerError(who: string, problem: string): SkillsError {
  return new SkillsError(
    'E_USAGE',
    `--for ${quoteConsumer(who)} ${problem}: expected the id of the agent or project that uses the skill`,
    {
      hint: `a consumer is ${CONSUMER_RULE}; e.g. --for content-creator`,
    },
  );
}
