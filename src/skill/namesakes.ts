// Different skills of one name in one source of many, of which one place (an agent folder, a registry version)
// holds one: a plugin marketplace's `discord/skills/access` and `telegram/skills/access`, or a course's
// `.agents/skills/x` and its translations' `translations/ar/.agents/skills/x`. The shallowest valid one is taken when
// it is alone at its depth (as the other installers take a repository's own skills folder first), and every other of
// its name deeper down, valid or not, is left out for it: the user asked for the repository's skill, not its
// translations. At a tie, none is taken here: install leaves each out, sync registers the first found. install and
// registry sync both settle their namesakes here, so the two cannot disagree.

/** One skill of a source as the rule sees it. */
export interface NamesakeFacts {
  /** What makes two skills namesakes: the id (install), or the id and version (a registry's release). */
  key: string;
  /** Folders below the source's top (any fixed offset: depths are compared within one source). */
  depth: number;
  /** Its content (the integrity): two of one content are one skill at two paths, not namesakes. */
  content: string;
  /** An invalid skill is never taken, and is left out when deeper than the one taken. */
  valid: boolean;
}

export interface SettledNamesakes<T> {
  /** Keys whose shallowest valid folders hold different content: every valid one of the key, none taken. */
  tied: Map<string, T[]>;
  /** Each skill left out, and the shallower one of its name that is taken instead. */
  outranked: Map<T, T>;
}

/** The number of folders in a slash-separated path. */
export function depthOfPath(path: string): number {
  return path.split('/').filter(Boolean).length;
}

/** Settle the namesakes among a source's skills; `facts` says what the rule needs of each. */
export function settleNamesakes<T>(items: readonly T[], facts: (item: T) => NamesakeFacts): SettledNamesakes<T> {
  const byKey = new Map<string, { item: T; f: NamesakeFacts }[]>();
  for (const item of items) {
    const f = facts(item);
    const group = byKey.get(f.key);
    if (group) group.push({ item, f });
    else byKey.set(f.key, [{ item, f }]);
  }
  const result: SettledNamesakes<T> = { tied: new Map(), outranked: new Map() };
  for (const [key, group] of byKey) {
    const valid = group.filter((g) => g.f.valid);
    if (valid.length === 0) continue;
    const top = Math.min(...valid.map((g) => g.f.depth));
    const shallowest = valid.filter((g) => g.f.depth === top);
    if (new Set(shallowest.map((g) => g.f.content)).size > 1) {
      result.tied.set(
        key,
        valid.map((g) => g.item),
      );
      continue;
    }
    const kept = shallowest[0]!;
    for (const g of group) {
      if (g.f.valid ? g.f.content !== kept.f.content : g.f.depth > top) result.outranked.set(g.item, kept.item);
    }
  }
  return result;
}

/** A few of many paths, and how many more. */
export function someOf(paths: readonly string[], shown = 3): string {
  return paths.length <= shown
    ? paths.join(', ')
    : `${paths.slice(0, shown).join(', ')} and ${paths.length - shown} more`;
}
