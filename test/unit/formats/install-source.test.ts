import { describe, expect, it } from 'vitest';
import { isSkillsError } from '../../../src/errors.js';
import {
  canonicalSource,
  parseRemoteSource,
  redactUrl,
  type RemoteSource,
} from '../../../src/formats/install-source.js';

const nothingOnDisk = () => false;
const parse = (raw: string, onDisk: (p: string) => boolean = nothingOnDisk) => parseRemoteSource(raw, onDisk);
const git = (url: string, extra: { ref?: string; path?: string } = {}) => ({ kind: 'git', url, ...extra });

/** The E_USAGE a refused source throws (the test fails when it does not throw). */
function refusal(raw: string): { message: string; hint?: string } {
  try {
    parseRemoteSource(raw, nothingOnDisk);
  } catch (err) {
    if (!isSkillsError(err)) throw err;
    expect(err.code).toBe('E_USAGE');
    return { message: err.message, hint: err.hint };
  }
  throw new Error(`"${raw}" was not refused`);
}

describe('parseRemoteSource: GitHub shorthand', () => {
  it.each<[string, object]>([
    ['owner/repo', git('https://github.com/owner/repo.git')],
    ['anthropics/skills', git('https://github.com/anthropics/skills.git')],
    ['owner/repo.git', git('https://github.com/owner/repo.git')],
    ['my_org.x/re-po.js', git('https://github.com/my_org.x/re-po.js.git')],
    ['owner/repo/path/to/skill', git('https://github.com/owner/repo.git', { path: 'path/to/skill' })],
    ['owner/repo/skills/pdf/', git('https://github.com/owner/repo.git', { path: 'skills/pdf' })],
    ['owner/repo/sub#v1', git('https://github.com/owner/repo.git', { ref: 'v1', path: 'sub' })],
    ['owner/repo#v1.2.0', git('https://github.com/owner/repo.git', { ref: 'v1.2.0' })],
    ['owner/repo#main', git('https://github.com/owner/repo.git', { ref: 'main' })],
    ['owner/repo#feature/x', git('https://github.com/owner/repo.git', { ref: 'feature/x' })],
    [`o/r#${'a'.repeat(40)}`, git('https://github.com/o/r.git', { ref: 'a'.repeat(40) })],
    ['o/r#3f2c1ab', git('https://github.com/o/r.git', { ref: '3f2c1ab' })],
    ['o/r#v1.2.0:skills/pdf', git('https://github.com/o/r.git', { ref: 'v1.2.0', path: 'skills/pdf' })],
    ['o/r#:skills/pdf', git('https://github.com/o/r.git', { path: 'skills/pdf' })],
    // HEAD, as git ls-remote lists it, is the default branch: what `#` alone names.
    ['o/r#HEAD:skills/pdf', git('https://github.com/o/r.git', { path: 'skills/pdf' })],
    ['o/r#HEAD', git('https://github.com/o/r.git')],
    ['o/r#semver:^1.2', git('https://github.com/o/r.git', { ref: 'semver:^1.2' })],
    ['o/r#semver:>=1.2 <2', git('https://github.com/o/r.git', { ref: 'semver:>=1.2 <2' })],
    ['o/r#semver:^1.2:skills/pdf', git('https://github.com/o/r.git', { ref: 'semver:^1.2', path: 'skills/pdf' })],
    ['o/r#', git('https://github.com/o/r.git')],
    ['o/r#:./skills//pdf', git('https://github.com/o/r.git', { path: 'skills/pdf' })],
    ['github:o/r', git('https://github.com/o/r.git')],
    ['github:o/r/skills/pdf#v2', git('https://github.com/o/r.git', { ref: 'v2', path: 'skills/pdf' })],
    ['github:o/r#v1.2.0:skills/pdf', git('https://github.com/o/r.git', { ref: 'v1.2.0', path: 'skills/pdf' })],
  ])('%s', (raw, expected) => {
    expect(parse(raw)).toEqual({ ...expected, typed: raw });
  });

  it('is not a shorthand when the path exists on disk, or looks like a path', () => {
    expect(parse('skills/pdf', (p) => p === 'skills/pdf')).toBeUndefined();
    expect(parse('skills/pdf')).toEqual({ ...git('https://github.com/skills/pdf.git'), typed: 'skills/pdf' });
    for (const raw of ['./o/r', '../o/r', '/o/r', '~/o/r', 'o\\r', 'o/r\\x', '.o/r'])
      expect(parse(raw)).toBeUndefined();
  });

  it('is not a shorthand outside GitHub names: a scoped name (an npm package), a spec, an owner that starts with "-"', () => {
    expect(parse('@scope/pdf')?.kind).toBe('npm');
    for (const raw of ['o/r@1.2', 'own er/repo', 'o/..', 'o/.', 'o/r:x']) expect(parse(raw)).toBeUndefined();
    expect(() => parse('-o/r')).toThrow(/starts with "-"/);
  });
});

describe('parseRemoteSource: GitLab', () => {
  it.each<[string, object]>([
    ['gitlab:group/repo', git('https://gitlab.com/group/repo.git')],
    ['gitlab:group/sub/repo', git('https://gitlab.com/group/sub/repo.git')],
    ['gitlab:group/sub/repo.git', git('https://gitlab.com/group/sub/repo.git')],
    [
      'gitlab:group/sub/repo#v1:skills/pdf',
      git('https://gitlab.com/group/sub/repo.git', { ref: 'v1', path: 'skills/pdf' }),
    ],
    ['gitlab:g/r#:skills/pdf', git('https://gitlab.com/g/r.git', { path: 'skills/pdf' })],
  ])('%s: every segment is the repository', (raw, expected) => {
    expect(parse(raw)).toEqual({ ...expected, typed: raw });
  });

  it('refuses a GitLab source with one segment', () => {
    expect(refusal('gitlab:repo').message).toMatch(/expected gitlab:group\/repo/);
    expect(refusal('github:repo').message).toMatch(/expected github:owner\/repo/);
  });
});

describe('parseRemoteSource: URLs', () => {
  it.each<[string, object]>([
    ['https://github.com/o/r', git('https://github.com/o/r.git')],
    ['https://github.com/o/r.git', git('https://github.com/o/r.git')],
    ['https://github.com/o/r/', git('https://github.com/o/r.git')],
    ['https://github.com/o/r#v1:skills/pdf', git('https://github.com/o/r.git', { ref: 'v1', path: 'skills/pdf' })],
    [
      'https://github.com/o/r/tree/main/skills/pdf',
      git('https://github.com/o/r.git', { ref: 'main', path: 'skills/pdf' }),
    ],
    ['https://github.com/o/r/tree/v1.2.0', git('https://github.com/o/r.git', { ref: 'v1.2.0' })],
    [
      'https://gitlab.com/g/sub/r/-/tree/v1/skills/pdf',
      git('https://gitlab.com/g/sub/r.git', { ref: 'v1', path: 'skills/pdf' }),
    ],
    ['https://gitlab.com/g/sub/r', git('https://gitlab.com/g/sub/r.git')],
    ['https://git.example.com/team/skills.git', git('https://git.example.com/team/skills.git')],
    ['https://git.example.com/team/skills.git#main', git('https://git.example.com/team/skills.git', { ref: 'main' })],
    ['http://127.0.0.1:8080/r.git', git('http://127.0.0.1:8080/r.git')],
    ['http://localhost/r.git', git('http://localhost/r.git')],
    ['http://[::1]:9/r.git', git('http://[::1]:9/r.git')],
    ['ssh://git@github.com/o/r.git', git('ssh://git@github.com/o/r.git')],
    ['git://127.0.0.1:9418/r.git#v1', git('git://127.0.0.1:9418/r.git', { ref: 'v1' })],
    ['file:///srv/git/r.git#:skills/pdf', git('file:///srv/git/r.git', { path: 'skills/pdf' })],
    ['git+https://github.com/o/r.git#main', git('https://github.com/o/r.git', { ref: 'main' })],
    ['git+ssh://git@host.xz/o/r.git', git('ssh://git@host.xz/o/r.git')],
    ['git+file:///srv/r.git', git('file:///srv/r.git')],
    ['git@github.com:o/r.git', git('git@github.com:o/r.git')],
    ['git@github.com:o/r#v1:skills/pdf', git('git@github.com:o/r', { ref: 'v1', path: 'skills/pdf' })],
    ['deploy@git.example.com:srv/skills.git', git('deploy@git.example.com:srv/skills.git')],
  ])('%s', (raw, expected) => {
    expect(parse(raw)).toEqual({ ...expected, typed: raw });
  });

  it.each([
    'https://example.com/skills/pdf-1.2.0.tgz',
    'https://example.com/a.tar.gz',
    'https://example.com/a.tar',
    'https://example.com/a.zip',
    'https://example.com/pdf.skill',
    'https://example.com/A.TGZ?sig=1',
    'http://127.0.0.1:9/a.tgz',
  ])('%s is an archive by URL', (raw) => {
    expect(parse(raw)).toEqual({ kind: 'url', url: raw, typed: raw });
  });

  it('reads git+https:// as git even when the path ends like an archive', () => {
    expect(parse('git+https://example.com/a.zip')).toMatchObject({ kind: 'git', url: 'https://example.com/a.zip' });
  });
});

describe('parseRemoteSource: not remote', () => {
  it.each([
    'pdf',
    'pdf@^1.2',
    'pdf@1.2.3',
    'basic-tools',
    './x',
    '../x',
    '/abs/x',
    '~/x',
    'C:\\skills\\pdf',
    'x.tgz',
    '',
  ])('%s', (raw) => {
    expect(parse(raw)).toBeUndefined();
  });

  it('leaves a local path that looks like a scheme or starts with "-" to the caller', () => {
    expect(parse('foo:bar', () => true)).toBeUndefined();
    expect(parse('-dir', () => true)).toBeUndefined();
  });
});

describe('parseRemoteSource: refusals (E_USAGE)', () => {
  it('refuses http:// to anything but a loopback host, saying why', () => {
    const r = refusal('http://example.com/o/r.git');
    expect(r.message).toMatch(/http:\/\/ is refused/);
    expect(r.hint).toMatch(/https:\/\//);
    expect(refusal('git+http://10.0.0.1/r.git').message).toMatch(/http:\/\/ is refused/);
    expect(refusal('http://example.com/a.tgz').message).toMatch(/http:\/\/ is refused/);
  });

  it.each([
    'ext::sh -c touch% /tmp/pwned',
    'fd::17',
    'ftp://example.com/r.git',
    'svn://x/r',
    'host:path/r.git',
    'git+ftp://x/r',
  ])('refuses the scheme of %s, naming the allowed ones', (raw) => {
    const r = refusal(raw);
    expect(r.message).toMatch(/is not one skills fetches from/);
    expect(r.hint).toMatch(/https:\/\/, ssh:\/\/, git:\/\/, file:\/\//);
  });

  it.each([
    ['-oProxyCommand=x', /starts with "-"/],
    ['ssh://-oProxyCommand=touch%20x/r', /host or user starts with "-"/],
    ['ssh://-u@host/r', /host or user starts with "-"/],
    ['-u@host:r', /starts with "-"/],
    ['git@-host:r', /user or host starts with "-"/],
    ['git@host:-r', /repository path after the ":"/],
    ['o/r#-x', /the ref "-x" starts with "-"/],
    ['o/r#:-x', /the path "-x" starts with "-"/],
    ['o/r/-x', /the path "-x" starts with "-"/],
  ])('refuses %s (an option in disguise)', (raw, why) => {
    expect(refusal(raw).message).toMatch(why);
  });

  it.each([
    ['o/r#v1:../x', /has a "\.\." segment/],
    ['o/r/../x', /has a "\.\." segment/],
    ['o/r#:a/../../x', /has a "\.\." segment/],
    ['o/r#:/etc', /starts with "\/"/],
    ['o/r#:a\\b', /has a backslash/],
    ['o/r#:a\0b', /has a NUL byte/],
    ['https://github.com/o/r/tree/main/../x', /"\.\." segment|not a valid/],
    ['https://github.com/o/r/tree/main/a%5Cb', /has a backslash/],
    ['https://github.com/o/r/tree/main/%2E%2E/x', /has a "\.\." segment/],
  ])('refuses the path of %s', (raw, why) => {
    const r = refusal(raw);
    expect(r.message).toMatch(why);
    expect(r.message).not.toContain('\0');
  });

  it.each(['o/r#a..b', 'o/r#a b', 'o/r#x~1', 'o/r#x^', 'o/r#a*', 'o/r#x.lock', 'o/r#/x', 'o/r#x/', 'o/r#@'])(
    'refuses the ref of %s',
    (raw) => {
      expect(refusal(raw).message).toMatch(/is not a branch, tag or commit name/);
    },
  );

  it('refuses a semver ref that is no range, a ref or path given twice, a fragment on an archive URL', () => {
    expect(refusal('o/r#semver:banana').message).toMatch(/"banana" is not a semver range/);
    expect(refusal('o/r#semver:').message).toMatch(/is not a semver range/);
    expect(refusal('https://github.com/o/r/tree/main#v2').message).toMatch(/names the ref twice/);
    expect(refusal('o/r/a#v1:b').message).toMatch(/names the folder twice/);
    expect(refusal('https://x.example/a.tgz#v1').message).toMatch(/takes no "#ref"/);
    expect(refusal('https://exa mple.com/r').message).toMatch(/not a valid URL/);
  });

  it('never shows a password or token in a refusal', () => {
    const r = refusal('http://user:s3cret@example.com/r.git');
    expect(r.message).not.toContain('s3cret');
    expect(refusal('http://ghp_token123@example.com/r.git').message).not.toContain('ghp_token123');
  });
});

describe('canonicalSource and redactUrl', () => {
  it('writes every way of typing a GitHub repository the same', () => {
    const forms = ['o/r', 'github:o/r', 'https://github.com/o/r', 'https://github.com/o/r/tree/main/x', 'o/r.git#v1'];
    expect(new Set(forms.map((f) => canonicalSource(parse(f)!)))).toEqual(new Set(['https://github.com/o/r.git']));
  });

  it('keeps no credentials of an https URL, and the user (not the password) of another', () => {
    const s = parse('https://x-access-token:ghp_abc@git.example.com/r.git') as Extract<RemoteSource, { kind: 'git' }>;
    expect(s.url).toBe('https://x-access-token:ghp_abc@git.example.com/r.git');
    expect(canonicalSource(s)).toBe('https://git.example.com/r.git');
    expect(canonicalSource(parse('ssh://git:pw@host/r.git')!)).toBe('ssh://git@host/r.git');
    expect(canonicalSource(parse('git@github.com:o/r.git')!)).toBe('git@github.com:o/r.git');
    expect(canonicalSource(parse('https://example.com/a.tgz')!)).toBe('https://example.com/a.tgz');
  });

  it('redacts credentials inside a longer text (a line of git)', () => {
    expect(redactUrl("fatal: unable to access 'https://tok@github.com/o/r/': 403")).toBe(
      "fatal: unable to access 'https://github.com/o/r/': 403",
    );
  });
});

describe('npm packages', () => {
  const none = () => false;
  it('reads npm:<name>[@range|@tag] and the bare @scope/name form', () => {
    expect(parseRemoteSource('npm:@acme/pdf@^1.2', none)).toEqual({
      kind: 'npm',
      name: '@acme/pdf',
      range: '^1.2',
      typed: 'npm:@acme/pdf@^1.2',
    });
    expect(parseRemoteSource('npm:pdf-tools', none)).toEqual({
      kind: 'npm',
      name: 'pdf-tools',
      typed: 'npm:pdf-tools',
    });
    expect(parseRemoteSource('@acme/pdf@next', none)).toMatchObject({ kind: 'npm', name: '@acme/pdf', range: 'next' });
    expect(parseRemoteSource('@acme/pdf', none)).toMatchObject({ kind: 'npm', name: '@acme/pdf' });
    expect(canonicalSource(parseRemoteSource('@acme/pdf@1.0.0', none)!)).toBe('@acme/pdf');
  });

  it('leaves a folder named like a package to the disk, and refuses names and ranges npm would not take', () => {
    expect(parseRemoteSource('@acme/pdf', () => true)).toBeUndefined();
    expect(() => parseRemoteSource('npm:@Acme/PDF', none)).toThrow(/is not an npm package name/);
    expect(() => parseRemoteSource('npm:@acme/pdf@', none)).toThrow(/neither a semver range nor a dist-tag/);
    expect(() => parseRemoteSource('npm:@acme/pdf@>>1', none)).toThrow(/neither a semver range nor a dist-tag/);
  });
});

describe('well-known sites', () => {
  const none = () => false;
  it('reads a site, or its discovery index, as the site’s skills; any other path stays a git URL', () => {
    for (const raw of [
      'https://skills.example.com',
      'https://skills.example.com/',
      'https://skills.example.com/.well-known/agent-skills/',
      'https://skills.example.com/.well-known/agent-skills/index.json',
    ])
      expect(parseRemoteSource(raw, none)).toEqual({
        kind: 'well-known',
        index: 'https://skills.example.com/.well-known/agent-skills/index.json',
        typed: raw,
      });
    expect(parseRemoteSource('https://skills.example.com/team/repo.git', none)?.kind).toBe('git');
    expect(parseRemoteSource('https://skills.example.com/#main', none)?.kind).toBe('git');
    expect(() => parseRemoteSource('http://skills.example.com/', none)).toThrow(/http:\/\/ is refused/);
    expect(parseRemoteSource('http://127.0.0.1:8080/', none)?.kind).toBe('well-known');
  });
});

describe('MCP servers', () => {
  it('reads mcp+stdio:<command line> and mcp+https:// (mcp+http:// to loopback) as an MCP server', () => {
    expect(parse('mcp+stdio:npx -y skillsmith serve ./skills')).toEqual({
      kind: 'mcp',
      server: 'stdio:npx -y skillsmith serve ./skills',
      typed: 'mcp+stdio:npx -y skillsmith serve ./skills',
    });
    expect(parse('mcp+https://skills.example.com/mcp')).toMatchObject({
      kind: 'mcp',
      server: 'https://skills.example.com/mcp',
    });
    expect(parse('mcp+http://127.0.0.1:8765/mcp')).toMatchObject({ kind: 'mcp', server: 'http://127.0.0.1:8765/mcp' });
    expect(canonicalSource(parse('mcp+http://localhost:1/mcp')!)).toBe('http://localhost:1/mcp');
  });

  it('refuses an empty command, plain http to another host, credentials in the URL and other schemes', () => {
    expect(refusal('mcp+stdio:').message).toContain('expected the command');
    expect(refusal('mcp+stdio:--evil').message).toContain('expected the command');
    expect(refusal('mcp+http://example.com/mcp').message).toContain('mcp+http:// is kept for 127.0.0.1');
    expect(refusal('mcp+https://u:secret@example.com/mcp')).toMatchObject({
      message: expect.not.stringContaining('secret'),
      hint: expect.stringContaining('SKILLS_MCP_TOKEN'),
    });
    expect(refusal('mcp+ftp://example.com/').message).toContain('expected mcp+stdio:<command> or mcp+https://');
  });
});
