// Greeting tools for the hello-extended skill. Plain objects, no imports.

export interface HelloTool {
  name: string;
  description: string;
  execute: (args: Record<string, unknown>) => Promise<string>;
}

const STYLES: Record<string, (name: string) => string> = {
  casual: (name) => `Hi ${name}!`,
  formal: (name) => `Good day, ${name}. It is a pleasure to meet you.`,
  pirate: (name) => `Ahoy, ${name}!`,
};

function requireName(args: Record<string, unknown>): string {
  const name = args.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new Error("'name' must be a non-empty string");
  }
  return name.trim();
}

export const helloGreet: HelloTool = {
  name: 'hello_greet',
  description: 'Greet a person by name in a casual, formal or pirate style',
  execute: async (args) => {
    const name = requireName(args);
    const style = typeof args.style === 'string' ? args.style : 'casual';
    const greet = STYLES[style];
    if (greet === undefined) {
      throw new Error(`unknown style '${style}' (use ${Object.keys(STYLES).join(', ')})`);
    }
    return greet(name);
  },
};

export const helloWave: HelloTool = {
  name: 'hello_wave',
  description: 'Wave at a person or group',
  execute: async (args) => {
    const name = typeof args.name === 'string' && args.name.trim() !== '' ? args.name.trim() : 'everyone';
    return `*waves at ${name}*`;
  },
};

export const HelloToolset: HelloTool[] = [helloGreet, helloWave];
