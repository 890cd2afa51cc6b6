import { describe, expect, it } from 'vitest';
import {
  gitFrom,
  highestTagIn,
  judgeGit,
  judgeRegistry,
  parseVersionTag,
  refKindOf,
  versionTags,
} from '../../../src/install/outdated.js';

const C = (n: number) => String(n).repeat(40).slice(0, 40);
const [A, B, D, E, F] = [C(1), C(2), C(3), C(4), C(5)];

describe('parseVersionTag', () => {
  it.each([
    ['v1.2.3', { version: '1.2.3', prefixed: false }],
    ['1.2.3', { version: '1.2.3', prefixed: false }],
    ['v2.0.0-rc.1', { version: '2.0.0-rc.1', prefixed: false }],
    ['pdf@1.2.3', { version: '1.2.3', prefixed: true }],
    ['pdf@v1.2.3', { version: '1.2.3', prefixed: true }],
    ['pdf-v1.2.3', { version: '1.2.3', prefixed: true }],
    ['pdf/v1.2.3', { version: '1.2.3', prefixed: true }],
  ])('reads %s', (tag, want) => expect(parseVersionTag(tag, 'pdf')).toEqual(want));

  it.each(['main', 'v1.2', 'release-1.2.3', 'docx@1.2.3', 'pdf-1.2.3', 'pdfx@1.2.3', 'v01.2.3'])(
    'refuses %s for pdf',
    (tag) => expect(parseVersionTag(tag, 'pdf')).toBeUndefined(),
  );
});

describe('versionTags', () => {
  it('sorts the plain version tags highest first, a v tag before a bare one of the same version', () => {
    const tags = [
      { tag: '1.0.0', commit: A },
      { tag: 'v1.10.0', commit: B },
      { tag: 'v1.0.0', commit: A },
      { tag: 'v1.9.0', commit: D },
      { tag: 'latest', commit: B },
    ];
    expect(versionTags(tags, 'pdf').map((t) => t.tag)).toEqual(['v1.10.0', 'v1.9.0', 'v1.0.0', '1.0.0']);
  });

  it("prefers the skill's own tags in a repository of many skills, and ignores another skill's", () => {
    const tags = [
      { tag: 'v3.0.0', commit: A },
      { tag: 'pdf@1.1.0', commit: B },
      { tag: 'pdf-v1.2.0', commit: D },
      { tag: 'docx@9.0.0', commit: E },
    ];
    expect(versionTags(tags, 'pdf').map((t) => t.tag)).toEqual(['pdf-v1.2.0', 'pdf@1.1.0']);
    // A skill with no tags of its own falls back to the plain ones, never to another skill's.
    expect(versionTags(tags, 'xlsx').map((t) => t.tag)).toEqual(['v3.0.0']);
  });
});

describe('highestTagIn', () => {
  const tags = versionTags(
    ['v1.0.0', 'v1.2.0', 'v1.3.0-beta.1', 'v2.0.0', 'v2.1.0-rc.1'].map((tag, i) => ({ tag, commit: C(i + 1) })),
    'pdf',
  );
  it('takes the highest release in a range, leaving prereleases out unless the range names one', () => {
    expect(highestTagIn(tags, '^1.0')?.tag).toBe('v1.2.0');
    expect(highestTagIn(tags, '>=1.3.0-beta.0 <1.4.0')?.tag).toBe('v1.3.0-beta.1');
    expect(highestTagIn(tags, '^3')).toBeUndefined();
  });
  it('with no range: the highest release, or the highest prerelease when there is nothing else', () => {
    expect(highestTagIn(tags)?.tag).toBe('v2.0.0');
    expect(highestTagIn(versionTags([{ tag: 'v1.0.0-rc.1', commit: A }], 'pdf'))?.tag).toBe('v1.0.0-rc.1');
  });
});

describe('refKindOf', () => {
  const tags = new Set(['v1.0.0', 'stable']);
  it.each([
    [undefined, 'branch'],
    ['main', 'branch'],
    ['semver:^1.2', 'semver'],
    ['v1.0.0', 'tag'],
    ['stable', 'tag'],
    ['refs/tags/v9.0.0', 'tag'],
    [A, 'commit'],
  ] as const)('%s is a %s', (ref, kind) => expect(refKindOf(ref, tags)).toBe(kind));
});

describe('judgeGit', () => {
  const tags = [
    { tag: 'v1.0.0', commit: A },
    { tag: 'v1.1.0', commit: B },
    { tag: 'v2.0.0', commit: D },
  ];

  it('a version tag: wanted stays it, latest is the highest tag', () => {
    const j = judgeGit('pdf', { commit: A, ref: 'v1.0.0', version: '1.0.0' }, tags, undefined);
    expect(j.refKind).toBe('tag');
    expect([j.current.label, j.wanted?.label, j.latest?.label]).toEqual(['1.0.0', '1.0.0', '2.0.0']);
    expect([j.wantedNewer, j.latestNewer]).toEqual([false, true]);
    expect(j.latest).toMatchObject({ commit: D, tag: 'v2.0.0' });
  });

  it("a skill whose own version is not its tag's: the version recorded and the tags as tags, compared by the tags", () => {
    const j = judgeGit('pdf', { commit: A, ref: 'semver:^1.0', version: '0.3.0' }, tags, undefined);
    expect([j.current.label, j.wanted?.label, j.latest?.label]).toEqual([
      '0.3.0 (tag v1.0.0)',
      'tag v1.1.0',
      'tag v2.0.0',
    ]);
    expect([j.current.version, j.wanted?.version, j.wantedNewer, j.latestNewer]).toEqual([
      '1.0.0',
      '1.1.0',
      true,
      true,
    ]);
    const pinned = judgeGit('pdf', { commit: A, ref: 'v1.0.0', version: '0.3.0' }, tags, undefined);
    expect(pinned.wanted?.label).toBe('0.3.0 (tag v1.0.0)');
  });

  it('an unversioned skill on a branch past a tag: latest is the branch, never the older tag', () => {
    const E = 'e'.repeat(40);
    const j = judgeGit('pdf', { commit: E, version: '0.0.0' }, tags, E);
    expect(j.latest).toMatchObject({ commit: E });
    expect([j.wantedNewer, j.latestNewer]).toEqual([false, false]);
  });

  it("a skill on a branch at a tag that is not its version: latest is the branch's head, or the tag as a tag", () => {
    // cloudflare/skills-shaped: the repository's v2.0.0 on a commit where the skill says no version.
    const unversioned = judgeGit('pdf', { commit: D, version: '0.0.0' }, tags, E);
    expect(unversioned.latest).toMatchObject({ commit: E, label: 'HEAD (4444444)' });
    expect([unversioned.wantedNewer, unversioned.latestNewer]).toEqual([true, true]);
    const versioned = judgeGit('pdf', { commit: A, ref: 'main', version: '0.3.0' }, tags, E);
    expect([versioned.current.label, versioned.latest?.label]).toEqual(['0.3.0 (1111111)', 'tag v2.0.0']);
    expect(versioned.latestNewer).toBe(true);
  });

  it('a semver range: wanted is the highest tag in it, not one outside', () => {
    const j = judgeGit('pdf', { commit: A, ref: 'semver:^1.0', version: '1.0.0' }, tags, undefined);
    expect(j.wanted).toMatchObject({ label: '1.1.0', commit: B, tag: 'v1.1.0' });
    expect([j.wantedNewer, j.latestNewer]).toEqual([true, true]);
    const none = judgeGit('pdf', { commit: A, ref: 'semver:^5', version: '1.0.0' }, tags, undefined);
    expect(none.wanted).toBeUndefined();
    expect(none.note).toBe('no tag in semver:^5');
  });

  it('a branch: current and wanted as version and short commit; wanted newer when the head moved', () => {
    const noTags: typeof tags = [];
    const same = judgeGit('pdf', { commit: A, ref: 'main', version: '1.0.0' }, noTags, A);
    expect([same.current.label, same.wanted?.label, same.latest?.label]).toEqual(Array(3).fill('1.0.0 (1111111)'));
    expect([same.wantedNewer, same.latestNewer]).toEqual([false, false]);
    const moved = judgeGit('pdf', { commit: A, ref: 'main', version: '1.0.0' }, noTags, E);
    expect(moved.wanted).toMatchObject({ label: 'main (4444444)', commit: E, branch: 'main' });
    expect([moved.wantedNewer, moved.latestNewer]).toEqual([true, true]);
    // No ref: the default branch.
    const head = judgeGit('pdf', { commit: A, version: '0.0.0' }, noTags, F);
    expect(head.wanted?.label).toBe('HEAD (5555555)');
    expect(head.note).toBeUndefined();
    const gone = judgeGit('pdf', { commit: A, ref: 'dev', version: '1.0.0' }, noTags, undefined);
    expect(gone.note).toBe('the branch dev is no longer on the remote');
  });

  it('a branch in a repository with version tags: latest is the highest tag, newer only when it is a higher version', () => {
    const j = judgeGit('pdf', { commit: E, ref: 'main', version: '2.0.0' }, tags, E);
    expect([j.wanted?.label, j.latest?.label]).toEqual(['2.0.0 (4444444)', '2.0.0']);
    expect([j.wantedNewer, j.latestNewer]).toEqual([false, false]);
  });

  it('a moved non-version tag is wanted; a pinned commit wants itself', () => {
    const moved = judgeGit(
      'pdf',
      { commit: A, ref: 'stable', version: '1.0.0' },
      [...tags, { tag: 'stable', commit: B }],
      undefined,
    );
    expect(moved.wanted).toMatchObject({ label: 'stable (2222222)', commit: B });
    expect(moved.wantedNewer).toBe(true);
    const pinned = judgeGit('pdf', { commit: A, ref: A, version: '1.0.0' }, tags, undefined);
    expect(pinned.refKind).toBe('commit');
    expect(pinned.wanted?.commit).toBe(A);
    expect([pinned.wantedNewer, pinned.latestNewer]).toEqual([false, true]);
  });
});

describe('judgeRegistry', () => {
  const versions = ['1.0.0', '1.2.0', '1.3.0-beta.1', '2.0.0'];
  it('wanted is the highest in the locked range (any, when none), latest the highest release', () => {
    const j = judgeRegistry({ ref: '^1.0', version: '1.0.0' }, versions);
    expect([j.current.label, j.wanted?.label, j.latest?.label]).toEqual(['1.0.0', '1.2.0', '2.0.0']);
    expect([j.wantedNewer, j.latestNewer]).toEqual([true, true]);
    const any = judgeRegistry({ version: '2.0.0' }, versions);
    expect([any.wanted?.label, any.wantedNewer, any.latestNewer]).toEqual(['2.0.0', false, false]);
    expect(judgeRegistry({ ref: '^3', version: '2.0.0' }, versions).note).toBe('no version in ^3');
  });
  it('an npm dist-tag wants the version it points at now, prerelease or older', () => {
    const tags = { latest: '1.2.0', next: '1.3.0-beta.1' };
    const next = judgeRegistry({ ref: 'next', version: '1.2.0' }, versions, tags);
    // Latest is the `latest` tag's version, as npm outdated shows it: 2.0.0, published but not tagged latest, is not.
    expect([next.wanted?.label, next.latest?.label, next.wantedNewer, next.latestNewer, next.note]).toEqual([
      '1.3.0-beta.1',
      '1.2.0',
      true,
      false,
      undefined,
    ]);
    const back = judgeRegistry({ ref: 'latest', version: '2.0.0' }, versions, tags);
    expect([back.wanted?.label, back.wantedNewer]).toEqual(['1.2.0', false]);
    expect(judgeRegistry({ ref: 'canary', version: '1.2.0' }, versions, tags).note).toBe('no dist-tag "canary"');
  });
  it("with no range, wants the `latest` tag's version, as a plain install took it, not one published under `next`", () => {
    // `skills install @acme/nexty` took 1.0.0 (latest); 1.5.0 was published with --tag next.
    const plain = judgeRegistry({ version: '1.0.0' }, ['1.0.0', '1.5.0'], { latest: '1.0.0', next: '1.5.0' });
    expect([plain.wanted?.label, plain.latest?.label, plain.wantedNewer, plain.latestNewer]).toEqual([
      '1.0.0',
      '1.0.0',
      false,
      false,
    ]);
    // A range still wants the highest in it (as install took it); a tag naming an unpublished version is no tag.
    expect(judgeRegistry({ ref: '^1', version: '1.0.0' }, ['1.0.0', '1.5.0'], { latest: '1.0.0' }).wanted?.label).toBe(
      '1.5.0',
    );
    expect(judgeRegistry({ version: '1.0.0' }, ['1.0.0', '1.5.0'], { latest: '9.9.9' }).wanted?.label).toBe('1.5.0');
  });
});

describe('gitFrom', () => {
  it('writes the source as install takes it, credentials out', () => {
    expect(gitFrom('https://tok@github.com/o/r.git', 'v1.0.0', 'skills/pdf')).toBe(
      'https://github.com/o/r.git#v1.0.0:skills/pdf',
    );
    expect(gitFrom('file:///r', undefined, 'skills/pdf')).toBe('file:///r#:skills/pdf');
    expect(gitFrom('file:///r', undefined, undefined)).toBe('file:///r');
  });
});
