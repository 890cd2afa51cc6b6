#!/usr/bin/env node
// Placeholder local MCP server: prints one JSON line describing its tools and exits.
'use strict';

const tools = [
  {
    name: 'post_tweet',
    description: 'Post a tweet to Twitter',
    inputSchema: {
      type: 'object',
      properties: { content: { type: 'string', maxLength: 280 } },
      required: ['content'],
    },
  },
  {
    name: 'get_analytics',
    description: 'Retrieve engagement metrics for a platform',
    inputSchema: {
      type: 'object',
      properties: {
        platform: { type: 'string', enum: ['twitter', 'instagram'] },
        hours: { type: 'integer', minimum: 1 },
      },
    },
  },
];

process.stdout.write(JSON.stringify({ server: 'social-mcp', version: '2.1.0', tools }) + '\n');
