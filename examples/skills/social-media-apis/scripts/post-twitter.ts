#!/usr/bin/env -S npx tsx
// Post a tweet to Twitter (dry run: validates the content and reports what would be posted).

export {};

interface Args {
  content?: unknown;
  mediaUrls?: unknown;
}

function readInput(): Promise<string> {
  if (process.argv[2] !== undefined) return Promise.resolve(process.argv[2]);
  return new Promise((resolve, reject) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => { data += chunk; });
    process.stdin.on('end', () => resolve(data));
    process.stdin.on('error', reject);
  });
}

function main(args: Args): string {
  if (!process.env.TWITTER_API_KEY) {
    throw new Error('TWITTER_API_KEY is not set');
  }
  if (typeof args.content !== 'string' || args.content.trim() === '') {
    throw new Error("'content' must be a non-empty string");
  }
  const length = Array.from(args.content).length;
  if (length > 280) {
    throw new Error(`Tweet too long: ${length} chars (max 280)`);
  }
  const media = args.mediaUrls === undefined ? [] : args.mediaUrls;
  if (!Array.isArray(media) || media.length > 4 || !media.every((u) => typeof u === 'string')) {
    throw new Error("'mediaUrls' must be a list of at most 4 strings");
  }
  const suffix = media.length > 0 ? ` with ${media.length} media item(s)` : '';
  return `dry run: would post ${length}-character tweet${suffix}: ${args.content}`;
}

readInput()
  .then((raw) => {
    const args: unknown = JSON.parse(raw.trim() === '' ? '{}' : raw);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new Error('arguments must be a JSON object');
    }
    console.log(JSON.stringify({ success: true, result: main(args as Args) }));
    process.exit(0);
  })
  .catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.log(JSON.stringify({ success: false, error: message }));
    process.exit(1);
  });
