// End-to-end test: drives `lore serve` with the official MCP TypeScript SDK
// client, over stdio and over streamable HTTP, and checks what a real client
// sees. Run by e2e_test.go, which builds lore and the fixtures and passes:
//
//   LORE_BIN      the lore binary
//   LORE_ROOT     a small project (code, docs, binary files, images and audio
//                 under media/, a symlink out of the root)
//   LORE_OUTSIDE  a folder outside LORE_ROOT holding secret.txt
//   LORE_BIG      a large project, for cancellation
//   LORE_EMPTY    a folder that is never indexed
//   LORE_MONO     a monorepo with every manifest kind, OpenSpec specs and spec-kit features
//   LORE_GRAPH    an indexed Go project with a large call graph (code_research cancellation)
//   LORE_CACHE_DIR where the spawned servers keep their indexes; its
//                 collections database holds two named collections: alpha
//                 (LORE_ROOT) and beta (LORE_MONO)
//
// Prints one line per check and a summary; exits 1 if any check failed.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

const env = process.env;
for (const name of ['LORE_BIN', 'LORE_ROOT', 'LORE_OUTSIDE', 'LORE_BIG', 'LORE_EMPTY', 'LORE_MONO', 'LORE_GRAPH', 'LORE_CACHE_DIR']) {
  if (!env[name]) {
    console.error(`e2e: ${name} is not set; run this through e2e_test.go`);
    process.exit(2);
  }
}
const ROOT = env.LORE_ROOT;
let cancelledTaskId; // the task tasks() cancels, whose stop the server logs

const results = [];
let section = '';
function check(name, ok, detail = '') {
  results.push({ name: `${section}: ${name}`, ok: !!ok, detail });
  const line = `${ok ? 'ok  ' : 'FAIL'} ${section}: ${name}`;
  console.log(ok || !detail ? line : `${line}\n       ${String(detail).slice(0, 600)}`);
}
function metrics(name, value) {
  console.log(`     ${name}: ${value}`);
}
const text = (res) => (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// until resolves once cond() holds, or after ms as a last guard (the check
// that follows then fails with what it saw).
async function until(cond, ms) {
  const deadline = performance.now() + ms;
  while (!cond() && performance.now() < deadline) await sleep(10);
}

// stdioTransport spawns lore serve; version, when set, replaces the protocol
// version the client asks for at initialize (the SDK always asks for its
// latest), and the initialize result is kept in transport.initResult.
function stdioTransport(args = [], version, root = ROOT) {
  const t = new StdioClientTransport({
    command: env.LORE_BIN,
    // The big and empty projects sit beside the root: the code tools may
    // index them only because they are allowed roots.
    args: ['serve', '--root', root, '--allow-root', env.LORE_BIG, '--allow-root', env.LORE_EMPTY, '--allow-root', env.LORE_GRAPH, ...args],
    env: { ...env },
    stderr: 'pipe',
  });
  t.stderrText = '';
  t.wire = [];
  t.stderr.on('data', (d) => { t.stderrText += d; });
  const send = t.send.bind(t);
  t.send = (msg, opts) => {
    if (version && msg.method === 'initialize') {
      msg = { ...msg, params: { ...msg.params, protocolVersion: version } };
    }
    return send(msg, opts);
  };
  let handler;
  Object.defineProperty(t, 'onmessage', {
    get: () => handler,
    set: (fn) => {
      handler = fn && ((m, extra) => {
        if (m.result && m.result.protocolVersion && m.result.serverInfo) t.initResult = m.result;
        t.wire.push(m); // every message, in the order the server sent it
        return fn(m, extra);
      });
    },
  });
  return t;
}

async function connect(transport) {
  const client = new Client({ name: 'lore-e2e', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

const EXPECTED_TOOLS = ['search', 'open_file', 'get_snippet', 'list_dir', 'index_codebase', 'search_code', 'search_docs', 'code_research',
  'search_packages', 'get_package', 'package_dependencies', 'package_dependents', 'dependency_graph', 'list_packages', 'index_status',
  'list_specs', 'get_spec_requirements', 'get_scenario', 'search_specs',
  'search_code_semantic', 'search_code_fulltext', 'search_code_by_payload'];
const COLLECTIONS_TOOLS = EXPECTED_TOOLS.slice(-3);

async function versions() {
  section = 'initialize';
  const cases = [
    ['2024-11-05', '2024-11-05'],
    ['2025-03-26', '2025-03-26'],
    ['2025-06-18', '2025-06-18'],
    ['2025-11-25', '2025-11-25'],
    ['2099-01-01', '2025-11-25'],
  ];
  for (const [ask, want] of cases) {
    const t = stdioTransport([], ask);
    try {
      const client = await connect(t);
      const got = t.initResult?.protocolVersion;
      check(`asks ${ask}, gets ${want}`, got === want, `got ${got}`);
      const info = client.getServerVersion();
      check(`server name at ${ask}`, info?.name === 'lore' && !!info?.version, JSON.stringify(info));
      const tasksCap = !!client.getServerCapabilities()?.tasks;
      check(`tasks capability only at 2025-11-25 (${ask})`, tasksCap === (want === '2025-11-25'));
      const { tools } = await client.listTools();
      check(`tools/list works at ${ask}`, tools.length === EXPECTED_TOOLS.length, tools.map((x) => x.name).join(','));
      await client.close();
    } catch (e) {
      check(`asks ${ask}`, false, e.stack);
    }
  }
  // 2026-07-28 has no handshake: server/discover with the version in _meta.
  const t = stdioTransport();
  const client = await connect(t);
  const { z } = await import('zod');
  const discover = await client.request({
    method: 'server/discover',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'e2e', version: '1' },
      },
    },
  }, z.object({ supportedVersions: z.array(z.string()) }).passthrough());
  check('server/discover lists 2026-07-28 on stdio', discover.supportedVersions.includes('2026-07-28'), JSON.stringify(discover.supportedVersions));
  check('instructions name the tools', /search_code/.test(client.getInstructions() ?? ''), client.getInstructions());
  await client.close();
}

async function toolsList(client) {
  section = 'tools/list';
  const first = await client.listTools();
  const names = first.tools.map((x) => x.name);
  check('registration order', JSON.stringify(names) === JSON.stringify(EXPECTED_TOOLS), names.join(','));
  const second = await client.listTools();
  check('stable across calls', JSON.stringify(first) === JSON.stringify(second));
  for (const tool of first.tools) {
    const a = tool.annotations ?? {};
    const fields = tool.title && tool.description && tool.inputSchema?.type === 'object' &&
      tool.outputSchema?.type === 'object' && Array.isArray(tool.icons) && tool.icons.length > 0;
    check(`${tool.name} has title, description, schemas, icons`, fields, JSON.stringify(tool).slice(0, 300));
    const readOnly = tool.name !== 'index_codebase';
    check(`${tool.name} annotations`, a.openWorldHint === false && a.readOnlyHint === readOnly && a.idempotentHint === true &&
      (readOnly || a.destructiveHint === false), JSON.stringify(a));
  }
  const idx = first.tools.find((x) => x.name === 'index_codebase');
  check('index_codebase execution.taskSupport', idx?.execution?.taskSupport === 'optional', JSON.stringify(idx?.execution));
}

async function codeTools(client, t) {
  section = 'code';
  const progress = [];
  const mark = t.wire.length;
  const indexed = await client.callTool({ name: 'index_codebase', arguments: { path: ROOT } }, CallToolResultSchema, {
    onprogress: (p) => progress.push(p),
  });
  const stats = indexed.structuredContent ?? {};
  check('index_codebase indexes', !indexed.isError && stats.files_scanned > 0 && stats.files_indexed > 0 &&
    stats.chunks_written > 0 && 'duration_ms' in stats, text(indexed));
  // What the server sent, read off the wire: the SDK client drops a
  // notification that arrives in the same read as its response
  // (typescript-sdk#2580), which the server cannot prevent.
  const wire = t.wire.slice(mark);
  const sent = wire.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
  const lastProgress = wire.findLastIndex((m) => m.method === 'notifications/progress');
  const result = wire.findIndex((m) => m.result?.structuredContent?.chunks_written !== undefined);
  check('index_codebase sends progress, the last one complete, before its result', sent.length > 0 && sent.at(-1).progress === sent.at(-1).total &&
    lastProgress < result, JSON.stringify(sent.at(-1)));
  metrics('progress notifications the client delivered / the server sent', `${progress.length}/${sent.length}`);
  const again = await client.callTool({ name: 'index_codebase', arguments: { path: ROOT } });
  check('index_codebase is incremental', again.structuredContent?.files_indexed === 0 && again.structuredContent?.files_unchanged > 0 &&
    again.structuredContent?.chunks_written === 0 && / no changes /.test(text(again)), text(again));

  const found = await client.callTool({ name: 'search_code', arguments: { query: 'Login password session', limit: 5 } });
  const hits = found.structuredContent?.results ?? [];
  check('search_code finds the code', !found.isError && hits.length > 0 && hits[0].path === 'auth/login.go', text(found).slice(0, 400));
  const fields = ['content', 'path', 'start_line', 'end_line', 'relevance_percent', 'kind', 'symbols'];
  check('search_code result fields', hits.every((h) => fields.every((f) => f in h)), JSON.stringify(hits[0]));
  check('search_code limit', hits.length <= 5);
  const sr = found.structuredContent ?? {};
  check('search_code total is the true count, truncated says the limit cut it', sr.total >= hits.length && sr.truncated === (hits.length < sr.total),
    JSON.stringify({ total: sr.total, truncated: sr.truncated, results: hits.length }));
  const links = found.content.filter((c) => c.type === 'resource_link');
  const distinct = new Set(hits.map((h) => h.path));
  check('one resource_link per file', links.length === distinct.size && links.every((l) => l.uri.startsWith('file:///') && l.mimeType && /line/.test(l.description)),
    JSON.stringify(links[0]));
  check('resource_link annotations', links.every((l, i) => l.annotations?.audience?.[0] === 'assistant' &&
    (i === 0 || l.annotations.priority <= links[i - 1].annotations.priority)), JSON.stringify(links.map((l) => l.annotations)));
  const filtered = await client.callTool({ name: 'search_code', arguments: { query: 'session', path_filter: 'auth/**', extensions: 'go' } });
  check('search_code path_filter and extensions', (filtered.structuredContent?.results ?? []).every((h) => h.path.startsWith('auth/') && h.path.endsWith('.go')), text(filtered).slice(0, 300));
  const toonOut = await client.callTool({ name: 'search_code', arguments: { query: 'Login', format: 'toon' } });
  check('format toon', /results\[\d+\]/.test(text(toonOut)), text(toonOut).slice(0, 200));
  const human = await client.callTool({ name: 'search_code', arguments: { query: 'Login', format: 'human' } });
  check('format human', /auth\/login\.go:\d+-\d+/.test(text(human)), text(human).slice(0, 200));
  const assisted = await client.callTool({ name: 'search_code', arguments: { query: 'Login', expand_query: true, synthesize: true } });
  const sc = assisted.structuredContent ?? {};
  check('expand_query and synthesize say their source', sc.expansion?.source === 'builtin' && sc.synthesis?.source === 'builtin' &&
    sc.synthesis.summary.length > 0 && sc.synthesis.follow_ups.length > 0, JSON.stringify({ e: sc.expansion, s: sc.synthesis }));
  const docs = await client.callTool({ name: 'search_docs', arguments: { query: 'installation configuration' } });
  const docHits = docs.structuredContent?.results ?? [];
  check('search_docs finds docs with lines', docHits.length > 0 && docHits.every((h) => /\.(md|rst|adoc|txt)$/.test(h.path) && h.start_line >= 1), text(docs).slice(0, 300));

  const errorCases = [
    ['search_code', { path: ROOT }, 'Missing required argument: query'],
    ['search_code', { query: '   ' }, 'Query cannot be empty'],
    ['search_code', { query: 'x', path: '/does/not/exist' }, 'Path is outside the allowed roots: /does/not/exist'],
    ['search_code', { query: 'x', path: 'missing' }, `Path does not exist or is not a directory: ${ROOT}/missing`],
    ['search_code', { query: 'x', path: env.LORE_OUTSIDE }, `Path is outside the allowed roots: ${env.LORE_OUTSIDE}`],
    ['search_code', { query: 'x', path: 'link-out' }, 'Path is outside the allowed roots: link-out'],
    ['search_code', { query: 'x', path: env.LORE_EMPTY }, `No index found for path: ${env.LORE_EMPTY}. Run 'index_codebase' tool first.`],
    ['search_docs', {}, 'Missing required argument: query'],
    ['index_codebase', {}, 'Missing required argument: path'],
    ['index_codebase', { path: '/does/not/exist' }, 'Path is outside the allowed roots: /does/not/exist'],
    ['index_codebase', { path: '../outside' }, 'Path is outside the allowed roots: ../outside'],
  ];
  for (const [name, args, message] of errorCases) {
    const res = await client.callTool({ name, arguments: args });
    check(`${name} ${JSON.stringify(args)} → "${message}"`, res.isError === true && text(res) === message, text(res));
  }
}

// research drives code_research: callers by hop with the chain and one
// progress notification per hop, the errors in seed 001's words, and the
// cancellation of a call that builds a large symbol graph.
async function research(client, stderr, t) {
  section = 'code_research';
  const progress = [];
  const mark = t.wire.length;
  const deep = await client.callTool({ name: 'code_research', arguments: { query: 'what calls Login()', depth: 3 } },
    CallToolResultSchema, { onprogress: (p) => progress.push(p) });
  const out = deep.structuredContent ?? {};
  const byId = Object.fromEntries((out.nodes ?? []).map((n) => [n.id, n]));
  const at = (d) => (out.nodes ?? []).filter((n) => n.depth === d).map((n) => n.symbol).sort().join(',');
  check('callers by hop', !deep.isError && out.intent === 'callers' && at(1) === 'HandleLogin' && at(2) === 'Route' && at(3) === 'main',
    text(deep).slice(0, 400));
  const chains = (out.chains ?? []).map((c) => c.map((id) => byId[id]?.symbol).join(' → '));
  check('the call chain', chains.includes('main → Route → HandleLogin → Login'), JSON.stringify(chains));
  // Read off the wire: the SDK client drops a notification that arrives
  // in the same read as its response (typescript-sdk#2580).
  const wire = t.wire.slice(mark);
  const perHop = wire.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
  const answered = wire.findIndex((m) => m.result?.structuredContent?.intent !== undefined);
  check('one progress notification per hop, before the answer', perHop.length === 3 && perHop.every((p, i) => p.progress === i + 1 && p.total === 3 &&
    p.message.startsWith(`hop ${i + 1} of 3`)) && wire.findLastIndex((m) => m.method === 'notifications/progress') < answered, JSON.stringify(perHop));
  metrics('code_research progress notifications the client delivered / the server sent', `${progress.length}/${perHop.length}`);
  const shallow = await client.callTool({ name: 'code_research', arguments: { query: 'what calls Login()', depth: 2 } });
  check('depth 2 stops before main', !shallow.isError && !(shallow.structuredContent?.nodes ?? []).some((n) => n.symbol === 'main'),
    text(shallow).slice(0, 300));
  const human = await client.callTool({ name: 'code_research', arguments: { query: 'what does main call', depth: 4, format: 'human' } });
  check('format human shows the chain', /main → Route → HandleLogin → Login/.test(text(human)), text(human).slice(0, 300));

  const errorCases = [
    [{ path: ROOT }, 'Missing required argument: query'],
    [{ query: '   ' }, 'Query cannot be empty'],
    [{ query: 'what calls Login', path: env.LORE_EMPTY }, `No index found for path: ${env.LORE_EMPTY}. Run 'index_codebase' tool first.`],
    [{ query: 'what calls Login', path: 'missing' }, `Path does not exist or is not a directory: ${ROOT}/missing`],
    [{ query: 'what calls Login', depth: 6 }, 'Argument depth must be between 1 and 5, got 6'],
    [{ query: 'what calls Login', focus: 'speed' }, 'Argument focus must be one of architecture, dependencies, patterns, flow; got "speed"'],
  ];
  for (const [args, message] of errorCases) {
    const res = await client.callTool({ name: 'code_research', arguments: args });
    check(`${JSON.stringify(args)} → "${message}"`, res.isError === true && text(res) === message, text(res));
  }
  const missing = await client.callTool({ name: 'code_research', arguments: { query: 'what calls Logn()' } });
  check('an unknown symbol offers the closest names', missing.isError && missing.structuredContent?.error?.code === 'SYMBOL_NOT_FOUND' &&
    /^No symbol named Logn in the index\. Closest names: .*Login/.test(text(missing)), text(missing));

  // Cancellation: the first call on the large project builds its symbol
  // graph; the client gives up at once (notifications/cancelled) and the
  // server must stop within 100 ms of the cancel.
  const controller = new AbortController();
  const sent = performance.now();
  const call = client.callTool({ name: 'code_research', arguments: { query: 'what calls Step1500_0', path: env.LORE_GRAPH, depth: 5 } },
    CallToolResultSchema, { signal: controller.signal });
  controller.abort();
  const abortedAfter = performance.now() - sent;
  let aborted;
  try {
    await call;
  } catch (e) {
    aborted = e;
  }
  check('the client sees its call aborted', aborted !== undefined, String(aborted));
  // The server stops the call either before it starts (its SDK drops a
  // queued request cancelled before its handler ran: nothing is logged)
  // or by the handler returning CANCELLED; never by running it to the
  // end. Calls start in order, so once a marker call made after the next
  // one has logged, every line of the two research calls is in.
  const after = await client.callTool({ name: 'code_research', arguments: { query: 'what calls Step1500_0', path: env.LORE_GRAPH, depth: 5 } });
  const hops = (after.structuredContent?.nodes ?? []).map((n) => n.depth);
  check('the next call answers, five hops deep', !after.isError && Math.max(...hops) === 5, text(after).slice(0, 300));
  await client.callTool({ name: 'code_research', arguments: { query: 'marker', path: env.LORE_GRAPH, depth: 7 } });
  await until(() => stderr().includes('got 7'), 30000);
  const lines = [...stderr().matchAll(/msg="tool call(?: failed)?" tool=code_research root=\S+graph duration_ms=(\d+)(?: code=(\w+))?/g)]
    .filter((m) => m[2] !== 'INVALID_ARGUMENT');
  const cancelled = lines.find((m) => m[2] === 'CANCELLED');
  const ranToTheEnd = lines.filter((m) => m[2] === undefined);
  check('the cancelled research never ran to the end', ranToTheEnd.length === 1 && lines.length === (cancelled ? 2 : 1),
    lines.map((m) => m[0]).join('\n') || stderr().slice(-600));
  if (cancelled) {
    const stopMs = Number(cancelled[1]) - abortedAfter;
    metrics('code_research stopped after the cancel', `${stopMs.toFixed(1)} ms (call ran ${cancelled[1]} ms)`);
    check('the cancelled research stopped within 100 ms', stopMs <= 100, cancelled[0]);
  } else {
    metrics('code_research stopped after the cancel', 'before it started (the request was dropped from the queue)');
  }
}

async function filesTools(client) {
  section = 'files';
  const call = (name, args) => client.callTool({ name, arguments: args });
  const listing = await call('list_dir', { repo: 'code' });
  const entries = listing.structuredContent?.result?.entries ?? [];
  const meta = listing.structuredContent?.meta ?? {};
  check('list_dir envelope', !listing.isError && meta.repo === 'code' && typeof meta.duration_ms === 'number' && meta.truncated === false, text(listing).slice(0, 300));
  const names = entries.map((x) => x.name);
  const dirsFirst = [...entries].sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : 1) : a.type === 'dir' ? -1 : 1)).map((x) => x.name);
  check('list_dir sorted (folders first), without hidden and ignored entries', names.includes('auth') && names.includes('README.md') &&
    !names.includes('.hidden') && !names.includes('ignored.log') && !names.includes('link-out') && JSON.stringify(names) === JSON.stringify(dirsFirst), names.join(','));
  check('list_dir entry fields', entries.every((x) => x.name && x.path && (x.type === 'file' || x.type === 'dir') && typeof x.size === 'number'), JSON.stringify(entries[0]));

  const opened = await call('open_file', { repo: 'code', path: 'auth/login.go' });
  const file = opened.structuredContent?.result ?? {};
  check('open_file lines', !opened.isError && file.path === 'auth/login.go' && file.lines?.[0]?.n === 1 && file.total_lines === file.lines.length, text(opened).slice(0, 300));
  const snippet = await call('get_snippet', { repo: 'code', path: 'auth/login.go', start_line: 3, end_line: 4 });
  const sn = snippet.structuredContent?.result ?? {};
  check('get_snippet range', !snippet.isError && sn.lines?.length === 2 && sn.lines[0].n === 3, text(snippet).slice(0, 300));
  const clamped = await call('get_snippet', { repo: 'code', path: 'auth/login.go', start_line: 2, end_line: 10000 });
  check('get_snippet clamps the end', !clamped.isError && clamped.structuredContent.result.lines.at(-1).n === file.total_lines, text(clamped).slice(0, 300));

  const found = await call('search', { query: 'needle', repo: 'both' });
  const matches = found.structuredContent?.result?.matches ?? [];
  check('search matches per line', !found.isError && matches.length >= 2 && matches.every((m) => m.repo && m.path && m.line >= 1 && /needle/i.test(m.preview)), text(found).slice(0, 300));
  const order = matches.map((m) => `${m.repo === 'docs' ? 0 : 1}\u0000${m.path}\u0000${String(m.line).padStart(8, '0')}`);
  check('search order: repo, path, line', JSON.stringify(order) === JSON.stringify([...order].sort()));
  const again = await call('search', { query: 'needle', repo: 'both' });
  check('search is deterministic', JSON.stringify(again.structuredContent.result.matches) === JSON.stringify(matches));
  const limited = await call('search', { query: 'needle', repo: 'code', limit: 1 });
  check('search limit sets truncated', limited.structuredContent?.result?.matches?.length === 1 && limited.structuredContent?.meta?.truncated === true, text(limited).slice(0, 300));
  check('search links its files', found.content.some((c) => c.type === 'resource_link' && c.uri.startsWith('file:///')));

  // Pictures and sound: bytes as image or audio content, base64, with the
  // MIME type the bytes tell; other binary files by type and size only.
  const b64 = (rel) => readFileSync(`${ROOT}/${rel}`).toString('base64');
  for (const [rel, type, mime] of [['media/diagram.png', 'image', 'image/png'], ['media/photo.png', 'image', 'image/jpeg'], ['media/beep.wav', 'audio', 'audio/wav']]) {
    const res = await call('open_file', { repo: 'code', path: rel });
    const r = res.structuredContent?.result ?? {};
    const media = res.content.filter((c) => c.type === type);
    check(`open_file ${rel} answers ${type} content`, !res.isError && r.sent_as === type && r.mime_type === mime && r.size === readFileSync(`${ROOT}/${rel}`).length &&
      media.length === 1 && media[0].mimeType === mime && media[0].data === b64(rel) && !('lines' in r) && !text(res).includes(media[0].data.slice(0, 40)),
      JSON.stringify({ result: r, content: res.content.map((c) => ({ type: c.type, mimeType: c.mimeType, bytes: c.data?.length })) }));
  }
  const pdf = await call('open_file', { repo: 'code', path: 'media/manual.pdf' });
  const pr = pdf.structuredContent?.result ?? {};
  const pdfLink = pdf.content.find((c) => c.type === 'resource_link');
  check('open_file of another binary file: type and size, no bytes', !pdf.isError && pr.sent_as === 'none' && pr.mime_type === 'application/pdf' &&
    pr.size > 0 && pdfLink?.mimeType === 'application/pdf' && /application\/pdf/.test(pdfLink?.description) &&
    !pdf.content.some((c) => c.type === 'image' || c.type === 'audio'), JSON.stringify(pdf.content).slice(0, 400));
  const huge = await call('open_file', { repo: 'code', path: 'media/huge.png' });
  const he = huge.structuredContent?.error ?? {};
  check('open_file of an image over the cap: FILE_TOO_LARGE with the size and the cap', huge.isError && he.code === 'FILE_TOO_LARGE' &&
    he.details?.size === readFileSync(`${ROOT}/media/huge.png`).length && he.details?.max_size < he.details?.size, text(huge).slice(0, 300));
  const inWav = await call('search', { query: 'WAVEfmt', repo: 'code' });
  check('search skips binary files', !inWav.isError && inWav.structuredContent.result.matches.length === 0, text(inWav).slice(0, 300));

  const errorCases = [
    ['open_file', { repo: 'nope', path: 'README.md' }, 'REPO_INVALID'],
    ['open_file', { repo: 'code', path: '../outside/secret.txt' }, 'PATH_OUTSIDE_ROOT'],
    ['open_file', { repo: 'code', path: `${env.LORE_OUTSIDE}/secret.txt` }, 'PATH_OUTSIDE_ROOT'],
    ['open_file', { repo: 'code', path: 'link-out/secret.txt' }, 'PATH_OUTSIDE_ROOT'],
    ['open_file', { repo: 'code', path: '%2e%2e/secret.txt' }, 'PATH_OUTSIDE_ROOT'],
    ['open_file', { repo: 'code', path: 'README.md\u0000.txt' }, 'PATH_OUTSIDE_ROOT'],
    ['list_dir', { repo: 'docs', path: '../..' }, 'PATH_OUTSIDE_ROOT'],
    ['open_file', { repo: 'code', path: 'missing.txt' }, 'NOT_FOUND'],
    ['open_file', { repo: 'code', path: 'auth' }, 'NOT_A_FILE'],
    ['list_dir', { repo: 'code', path: 'README.md' }, 'NOT_A_DIRECTORY'],
    ['get_snippet', { repo: 'code', path: 'image.bin', start_line: 1, end_line: 1 }, 'BINARY_FILE'],
    ['open_file', { repo: 'code', path: 'media/huge.png' }, 'FILE_TOO_LARGE'],
    ['get_snippet', { repo: 'code', path: 'README.md', start_line: 5, end_line: 2 }, 'INVALID_RANGE'],
    ['get_snippet', { repo: 'code', path: 'README.md', start_line: 0, end_line: 2 }, 'INVALID_RANGE'],
    ['get_snippet', { repo: 'code', path: 'README.md', start_line: 1000, end_line: 1001 }, 'INVALID_RANGE'],
    ['search', { query: '' }, 'QUERY_EMPTY'],
    ['search', { query: 'x', limit: 0 }, 'LIMIT_INVALID'],
    ['search', { query: 'x', repo: 'all' }, 'REPO_INVALID'],
    ['search', { query: '(', regex: true }, 'INVALID_ARGUMENT'],
  ];
  for (const [name, args, code] of errorCases) {
    const res = await call(name, args);
    const err = res.structuredContent?.error ?? {};
    const shaped = res.isError === true && err.code === code && typeof err.message === 'string' && typeof err.details === 'object';
    const noLeak = !text(res).includes('TOP SECRET');
    check(`${name} ${JSON.stringify(args)} → ${code}`, shaped && noLeak && JSON.parse(text(res)).error.code === code, text(res));
  }
}

async function tasks(client) {
  section = 'tasks';
  // The SDK's own task client: task-augmented call, polling, result.
  const progress = [];
  let created;
  let final;
  const stream = client.experimental.tasks.callToolStream(
    { name: 'index_codebase', arguments: { path: ROOT, force: true } },
    CallToolResultSchema,
    { task: { ttl: 60000 }, onprogress: (p) => progress.push(p) },
  );
  for await (const msg of stream) {
    if (msg.type === 'taskCreated') created = msg.task;
    if (msg.type === 'result' || msg.type === 'error') final = msg;
  }
  check('task created at once, working', created?.taskId && created.status === 'working', JSON.stringify(created));
  check('task result', final?.type === 'result' && final.result.structuredContent?.files_scanned > 0, JSON.stringify(final).slice(0, 300));
  check('task progress', progress.length > 0, `${progress.length} notifications`);
  const got = await client.experimental.tasks.getTask(created.taskId);
  check('tasks/get completed', got.status === 'completed', JSON.stringify(got));

  // Cancellation of a long run on a large project.
  const started = await client.request({
    method: 'tools/call',
    params: { name: 'index_codebase', arguments: { path: env.LORE_BIG }, task: {}, _meta: { progressToken: 'big' } },
  }, CreateTaskResultSchema);
  const id = started.task.taskId;
  cancelledTaskId = id;
  let working;
  for (const deadline = performance.now() + 120000; performance.now() < deadline;) {
    const t = await client.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema);
    if (/\d+\/\d+ files/.test(t.statusMessage ?? '')) {
      working = t;
      break;
    }
    await sleep(20);
  }
  check('the large task is under way before the cancel', working?.status === 'working', JSON.stringify(working));
  const t0 = performance.now();
  const cancelled = await client.experimental.tasks.cancelTask(id);
  const cancelMs = performance.now() - t0;
  check('tasks/cancel → cancelled', cancelled.status === 'cancelled', JSON.stringify(cancelled));
  metrics('cancellation latency (tasks/cancel → status cancelled)', `${cancelMs.toFixed(1)} ms`);
  const after = await client.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema);
  check('tasks/get after cancel', after.status === 'cancelled', JSON.stringify(after));
  const result = await client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
  check('tasks/result of a cancelled task', result.isError === true && result.structuredContent?.error?.code === 'CANCELLED' &&
    result._meta?.['io.modelcontextprotocol/related-task']?.taskId === id, JSON.stringify(result).slice(0, 300));
  let secondCancel;
  try {
    await client.experimental.tasks.cancelTask(id);
  } catch (e) {
    secondCancel = e;
  }
  check('cancelling a cancelled task is -32602', secondCancel?.code === -32602, String(secondCancel));
  const list = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
  check('tasks/list', list.tasks.some((x) => x.taskId === id) && list.tasks.some((x) => x.taskId === created.taskId));
  const still = await client.callTool({ name: 'search_code', arguments: { query: 'Login password' } });
  check('previous index intact after cancel', !still.isError, text(still).slice(0, 200));
  let unknown;
  try {
    await client.experimental.tasks.getTask('no-such-task');
  } catch (e) {
    unknown = e;
  }
  check('tasks/get unknown id is -32602', unknown?.code === -32602, String(unknown));
}

async function stdio() {
  section = 'stdio';
  const t = stdioTransport();
  const client = await connect(t);
  try {
    await toolsList(client);
    await codeTools(client, t);
    await research(client, () => t.stderrText, t);
    await filesTools(client);
    await tasks(client);
    // The cancelled task's work logs when it has stopped; closing the
    // session first would end the server before it can.
    await until(() => /msg="task work stopped"/.test(t.stderrText), 60000);
  } catch (e) {
    check('stdio session', false, e.stack);
  }
  await client.close();
  section = 'logs';
  check('stderr has one line per tool call', /msg="tool call" tool=search_code root=\S+ duration_ms=\d+/.test(t.stderrText), t.stderrText.slice(-500));
  check('stderr logs errors with their code', /msg="tool call failed" tool=open_file .*code=PATH_OUTSIDE_ROOT/.test(t.stderrText));
  check('logs never hold file contents', !t.stderrText.includes('TOP SECRET') && !t.stderrText.includes('checkPassword('));
  const stopped = t.stderrText.match(new RegExp(`msg="task work stopped" task=${cancelledTaskId} tool=index_codebase after_cancel_ms=(\\d+)`));
  check('the cancelled indexing stopped within 1 s', stopped && Number(stopped[1]) <= 1000, stopped?.[0] ?? 'no "task work stopped" line');
  if (stopped) metrics('indexing stopped after tasks/cancel', `${stopped[1]} ms`);
}

// packagesAndSpecs serves the monorepo: first without an index (the spec
// navigation works, search_specs and the packages tools say to index), then
// indexed, calling every packages and specs tool for its answers and errors.
async function packagesAndSpecs() {
  const MONO = env.LORE_MONO;
  const t = stdioTransport([], undefined, MONO);
  const client = await connect(t);
  const call = (name, args = {}) => client.callTool({ name, arguments: args });
  const sameJSON = (res) => {
    try {
      return JSON.stringify(JSON.parse(text(res))) === JSON.stringify(res.structuredContent);
    } catch {
      return false;
    }
  };
  try {
    section = 'specs without an index';
    const listed = await call('list_specs');
    const specs = listed.structuredContent?.specs ?? [];
    const ids = specs.map((x) => x.id);
    check('list_specs works without an index', !listed.isError && sameJSON(listed) &&
      JSON.stringify(ids) === JSON.stringify(['001-export-bookmarks', '002-notify', 'add-2fa/auth', 'add-2fa/session', 'auth', 'broken', 'search', 'variants']), text(listed).slice(0, 400));
    const auth = specs.find((x) => x.id === 'auth') ?? {};
    check('list_specs gives id, title, purpose, no requirements', auth.title === 'Authentication' && /^Members sign in/.test(auth.purpose) &&
      specs.every((x) => 'id' in x && 'title' in x && 'purpose' in x && !('requirements' in x)), JSON.stringify(auth));
    check('a malformed spec is listed with warnings', specs.find((x) => x.id === 'broken')?.warnings?.length > 0, JSON.stringify(specs.find((x) => x.id === 'broken')));
    check('spec-kit and change kinds', specs.find((x) => x.id === '001-export-bookmarks')?.kind === 'spec-kit' &&
      specs.find((x) => x.id === 'add-2fa/auth')?.kind === 'openspec-change');
    const reqs = await call('get_spec_requirements', { spec_id: 'auth' });
    const rl = reqs.structuredContent?.requirements ?? [];
    check('get_spec_requirements: name and scenario_count, no bodies', !reqs.isError && rl[0]?.name === 'Password Login' &&
      rl[0]?.scenario_count === 2 && rl.every((r) => !('scenarios' in r)), text(reqs).slice(0, 300));
    const first = await call('get_scenario', { spec_id: 'auth', requirement: 'Password Login' });
    const fs = first.structuredContent ?? {};
    check('get_scenario without scenario gives the first', !first.isError && fs.scenario?.name === 'Valid credentials' &&
      /sign in with an email address/.test(fs.description) && fs.scenario.when[0] === 'the member submits the correct password' &&
      fs.scenario.then.at(-1) === 'the member is redirected to the bookmark list', text(first).slice(0, 400));
    const named = await call('get_scenario', { spec_id: 'auth', requirement: 'Magic Link', scenario: 'Link requested' });
    check('get_scenario: AND lines join their clause', JSON.stringify(named.structuredContent?.scenario?.when) ===
      JSON.stringify(['a member asks for a magic link', 'the email address belongs to a member']), text(named).slice(0, 300));
    const noIndex = `No index found for path: ${MONO}. Run 'index_codebase' tool first.`;
    const before = [
      ['search_specs', { query: 'password' }, noIndex],
      ['search_packages', { query: 'ui' }, noIndex],
      ['list_packages', {}, noIndex],
      ['index_status', {}, noIndex],
      ['get_package', { name: 'web' }, noIndex],
      ['package_dependencies', { name: 'web' }, noIndex],
      ['package_dependents', { name: 'web' }, noIndex],
      ['dependency_graph', { root: 'web' }, noIndex],
    ];
    for (const [name, args, message] of before) {
      const res = await call(name, args);
      check(`${name} without an index → "${message}"`, res.isError === true && text(res) === message &&
        res.structuredContent?.error?.code === 'NO_INDEX', text(res));
    }

    section = 'packages';
    const indexed = await call('index_codebase', { path: MONO });
    check('index_codebase indexes the monorepo', !indexed.isError, text(indexed).slice(0, 300));
    const status = await call('index_status');
    check('index_status: indexed_at, git_commit, package_count', !status.isError && sameJSON(status) && status.structuredContent.package_count === 33 &&
      typeof status.structuredContent.git_commit === 'string' && /^\d{4}-\d\d-\d\dT/.test(status.structuredContent.indexed_at), text(status));
    const all = await call('list_packages');
    const names = (all.structuredContent?.packages ?? []).map((p) => p.name);
    check('list_packages: every package, ordered by name', !all.isError && sameJSON(all) && names.length === 33 &&
      JSON.stringify(names) === JSON.stringify([...names].sort()) && !names.includes('left-pad'), names.join(','));
    const cargo = await call('list_packages', { kind: 'cargo' });
    check('list_packages kind', JSON.stringify((cargo.structuredContent?.packages ?? []).map((p) => p.name)) === JSON.stringify(['acme-cli', 'acme-core', 'experimental']), text(cargo).slice(0, 300));
    const found = await call('search_packages', { query: 'ui' });
    const hits = found.structuredContent?.packages ?? [];
    check('search_packages finds by name, with its fields', !found.isError && hits[0]?.name === '@acme/ui' &&
      ['name', 'path', 'kind', 'version', 'description', 'metadata'].every((f) => f in hits[0]), text(found).slice(0, 300));
    const many = await call('search_packages', { query: 'acme' });
    check('search_packages returns at most 20', !many.isError && many.structuredContent.packages.length <= 20 && many.structuredContent.packages.length > 0);
    let safe = true;
    for (const q of ['"ui', 'ui*', '-ui', 'name:ui', 'ui AND core', '(ui', 'NEAR(ui core)']) {
      const res = await call('search_packages', { query: q });
      if (res.isError) safe = false;
    }
    check('search_packages: FTS5 syntax never errors', safe);
    const pkg = await call('get_package', { name: '@acme/ui' });
    check('get_package: full details', !pkg.isError && pkg.structuredContent.path === 'packages/ui' && pkg.structuredContent.kind === 'npm' &&
      pkg.structuredContent.dependencies.some((d) => d.name === '@acme/utils' && d.is_internal === true), text(pkg).slice(0, 300));
    const depsAll = await call('package_dependencies', { name: 'example.com/api' });
    const depsInt = await call('package_dependencies', { name: 'example.com/api', internal_only: true });
    check('package_dependencies internal_only', JSON.stringify(depsInt.structuredContent?.dependencies?.map((d) => d.name)) === JSON.stringify(['example.com/lib']) &&
      depsAll.structuredContent?.dependencies?.length > 1, text(depsAll).slice(0, 300));
    const dependents = await call('package_dependents', { name: '@acme/ui' });
    check('package_dependents', JSON.stringify(dependents.structuredContent?.dependents?.map((p) => p.name)) === JSON.stringify(['@acme/utils', 'site', 'web']), text(dependents).slice(0, 300));
    const graph = await call('dependency_graph', { root: 'web', depth: 100 });
    const edges = (graph.structuredContent?.edges ?? []).map((e) => `${e.from}>${e.to}:${e.dep_kind}`);
    check('dependency_graph: BFS, cycle ends, depth clamped to 20', graph.structuredContent?.depth === 20 &&
      JSON.stringify(edges) === JSON.stringify(['web>@acme/ui:runtime', '@acme/ui>@acme/utils:runtime', '@acme/utils>@acme/ui:runtime']), text(graph));
    const shallow = await call('dependency_graph', { root: 'web', depth: 0 });
    check('dependency_graph depth clamped to 1', shallow.structuredContent?.depth === 1 && shallow.structuredContent.edges.length === 1, text(shallow));

    section = 'specs';
    const ranked = await call('search_specs', { query: 'password login' });
    const sh = ranked.structuredContent?.results ?? [];
    check('search_specs ranks requirements', !ranked.isError && sh[0]?.requirement === 'Password Login' &&
      sh.every((h, i) => 'spec_id' in h && 'snippet' in h && h.score > 0 && (i === 0 || h.score <= sh[i - 1].score)), text(ranked).slice(0, 400));
    const limited = await call('search_specs', { query: 'password', limit: 1 });
    check('search_specs limit', limited.structuredContent?.results?.length === 1, text(limited).slice(0, 200));
    const unrelated = await call('search_specs', { query: 'quantum chromodynamics lattice' });
    check('search_specs: unrelated query → []', !unrelated.isError && unrelated.structuredContent.results.length === 0, text(unrelated));

    section = 'packages and specs errors';
    const errorCases = [
      ['search_packages', { query: '  ' }, 'Search query must not be empty'],
      ['search_packages', {}, 'Missing required argument: query'],
      ['get_package', { name: 'nope' }, "Package 'nope' not found"],
      ['package_dependencies', { name: 'nope' }, "Package 'nope' not found"],
      ['package_dependents', { name: 'nope' }, "Package 'nope' not found"],
      ['dependency_graph', { root: 'nope' }, "Package 'nope' not found"],
      ['list_packages', { kind: 'rubygems' }, 'Argument kind must be one of npm, go, cargo, python, maven, gradle, composer, gem, nuget, dart, swift; got "rubygems"'],
      ['get_spec_requirements', { spec_id: 'nope' }, "Spec 'nope' not found"],
      ['get_scenario', { spec_id: 'nope', requirement: 'x' }, "Spec 'nope' not found"],
      ['get_scenario', { spec_id: 'auth', requirement: 'Teleport' }, "Requirement 'Teleport' not found in spec 'auth'"],
      ['get_scenario', { spec_id: 'auth', requirement: 'Password Login', scenario: 'Moon landing' }, "Scenario 'Moon landing' not found in requirement 'Password Login'"],
      ['search_specs', { query: '' }, 'Query cannot be empty'],
    ];
    for (const [name, args, message] of errorCases) {
      const res = await call(name, args);
      check(`${name} ${JSON.stringify(args)} → "${message}"`, res.isError === true && text(res) === message &&
        res.structuredContent?.error?.message === message, text(res));
    }
  } catch (e) {
    check('packages and specs session', false, e.stack);
  }
  await client.close();
}

async function http() {
  section = 'http';
  const proc = spawn(env.LORE_BIN, ['serve', '--root', ROOT, '--http', '127.0.0.1:0'], { env: { ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  try {
    let url;
    for (const deadline = performance.now() + 120000; !url && performance.now() < deadline;) {
      url = stderr.match(/serving MCP at (http:\/\/\S+)/)?.[1];
      if (!url) await sleep(25);
    }
    check('lore serve --http prints its URL', !!url, stderr);
    if (!url) return;
    check('binds loopback', url.startsWith('http://127.0.0.1:'));
    const client = new Client({ name: 'lore-e2e-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    check('tools/list over HTTP', JSON.stringify(tools.map((x) => x.name)) === JSON.stringify(EXPECTED_TOOLS));
    const res = await client.callTool({ name: 'search_code', arguments: { query: 'Login' } });
    check('search_code over HTTP', !res.isError && res.structuredContent.results.length > 0, text(res).slice(0, 200));
    const progress = [];
    let final;
    for await (const msg of client.experimental.tasks.callToolStream({ name: 'index_codebase', arguments: { path: ROOT } },
      CallToolResultSchema, { task: {}, onprogress: (p) => progress.push(p) })) {
      if (msg.type === 'result' || msg.type === 'error') final = msg;
    }
    check('task over HTTP', final?.type === 'result' && final.result.structuredContent?.files_scanned > 0, JSON.stringify(final).slice(0, 300));
    metrics('progress notifications received for the HTTP task', progress.length);
    const evil = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Origin: 'http://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    check('foreign Origin refused with 403', evil.status === 403, `${evil.status}`);
    const local = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Origin: 'http://localhost:3000' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    check('loopback Origin allowed', local.status === 200, `${local.status}`);
    await client.close();
  } catch (e) {
    check('http session', false, e.stack);
  } finally {
    proc.kill('SIGTERM');
    const [code, signal] = await Promise.race([once(proc, 'exit'), sleep(60000).then(() => ['timeout'])]);
    check('lore serve --http stops on SIGTERM', code === 0 || signal === 'SIGTERM', `exit ${code} ${signal ?? ''}`);
  }
}

// rpcError calls a tool that must fail with a JSON-RPC error and returns
// {code, message, data}; a tool result instead is { result }.
async function rpcError(client, name, args) {
  try {
    const result = await client.callTool({ name, arguments: args });
    return { result };
  } catch (e) {
    return { code: e.code, message: e.message, data: e.data };
  }
}

// spawnHTTP starts lore serve --http with args and returns its base URL and
// process once it listens.
async function spawnHTTP(args) {
  const proc = spawn(env.LORE_BIN, ['serve', '--http', '127.0.0.1:0', ...args], { env: { ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  let base;
  for (const deadline = performance.now() + 120000; !base && performance.now() < deadline;) {
    base = stderr.match(/serving (?:MCP|the REST API) at (http:\/\/[^/\s]+)\//)?.[1];
    if (!base) await sleep(25);
  }
  return { proc, base, stderr: () => stderr };
}

async function collections() {
  section = 'collections (MCP)';
  const t = stdioTransport(['--toolsets', 'collections']);
  const client = await connect(t);
  try {
    const { tools } = await client.listTools();
    check('three tools, in order', JSON.stringify(tools.map((x) => x.name)) === JSON.stringify(COLLECTIONS_TOOLS), tools.map((x) => x.name).join(','));
    for (const tool of tools) {
      const props = tool.inputSchema?.properties ?? {};
      check(`${tool.name} schema names collectionName and top_k (1..1000, default 10)`,
        tool.inputSchema.required.includes('collectionName') && props.top_k?.default === 10 && props.top_k?.minimum === 1 && props.top_k?.maximum === 1000,
        JSON.stringify(tool.inputSchema));
      check(`${tool.name} has title, output schema, icons, read-only annotations`, tool.title && tool.outputSchema?.properties?.results &&
        tool.icons?.length > 0 && tool.annotations?.readOnlyHint === true, JSON.stringify(tool).slice(0, 300));
    }
    const payloadOf = (res) => res.structuredContent.results.map((r) => r.payload);

    // Each collection is searched on its own.
    const alpha = await client.callTool({ name: 'search_code_semantic', arguments: { query: 'log in a user', collectionName: 'alpha', top_k: 3 } });
    const ap = payloadOf(alpha);
    check('semantic search of alpha', !alpha.isError && ap.length > 0 && ap.length <= 3 && ap.every((p) => p.collectionName === 'alpha'),
      JSON.stringify(alpha.structuredContent).slice(0, 300));
    check('results are {score, payload} with the payload keys', alpha.structuredContent.results.every((r) => typeof r.score === 'number' &&
      ['filePath', 'language', 'kind', 'symbols', 'signature', 'breadcrumb', 'startLine', 'endLine', 'collectionName', 'code'].every((k) => k in r.payload)) &&
      ap.every((p) => p.filePath.startsWith('/')), JSON.stringify(ap[0]));
    const beta = await client.callTool({ name: 'search_code_semantic', arguments: { query: 'package dependencies', collectionName: 'beta' } });
    check('semantic search of beta finds beta only', !beta.isError && payloadOf(beta).length > 0 && payloadOf(beta).every((p) => p.collectionName === 'beta'),
      JSON.stringify(beta.structuredContent).slice(0, 300));
    const prompted = await client.callTool({ name: 'search_code_semantic', arguments: { query: 'user', collectionName: 'alpha', prompt: 'password check', rerank: false } });
    check('prompt and rerank: false are accepted', !prompted.isError && payloadOf(prompted).length > 0, text(prompted).slice(0, 200));

    const full = await client.callTool({ name: 'search_code_fulltext', arguments: { textQuery: 'logi', collectionName: 'alpha' } });
    check('fulltext: a partial identifier matches, ignoring case', !full.isError && payloadOf(full).length > 0 &&
      payloadOf(full).every((p) => p.code.toLowerCase().includes('logi')), JSON.stringify(payloadOf(full).map((p) => p.filePath)));
    const langs = [...new Set(payloadOf(full).map((p) => p.language))];
    const narrowed = await client.callTool({ name: 'search_code_fulltext', arguments: { textQuery: 'logi', collectionName: 'alpha', payload: { language: langs[0] } } });
    check('fulltext narrowed by a payload filter', payloadOf(narrowed).length > 0 && payloadOf(narrowed).every((p) => p.language === langs[0]), langs.join(','));

    const byPath = await client.callTool({ name: 'search_code_by_payload', arguments: { collectionName: 'beta', payload: { filePath: '/packages/**' }, top_k: 1000 } });
    const paths = payloadOf(byPath).map((p) => p.filePath);
    check('by payload: a filePath glob, ** crossing folders', paths.length > 0 && paths.every((p) => p.startsWith('/packages/')), paths.slice(0, 5).join(','));
    const sorted = [...paths].sort();
    check('by payload: a stable order, path then line', JSON.stringify(paths) === JSON.stringify(sorted) || paths.every((p, i) => i === 0 || paths[i - 1] <= p));
    const anyOf = await client.callTool({ name: 'search_code_by_payload', arguments: { collectionName: 'beta', payload: { language: ['json', 'toml'] }, top_k: 1000 } });
    check('by payload: a list means any of', payloadOf(anyOf).length > 0 && payloadOf(anyOf).every((p) => ['json', 'toml'].includes(p.language)),
      JSON.stringify([...new Set(payloadOf(anyOf).map((p) => p.language))]));
    const firstSymbol = ap.find((p) => p.symbols.length > 0)?.symbols[0];
    const bySymbol = await client.callTool({ name: 'search_code_by_payload', arguments: { collectionName: 'alpha', payload: { symbols: firstSymbol } } });
    check('by payload: symbols match when any symbol equals', firstSymbol && payloadOf(bySymbol).length > 0 && payloadOf(bySymbol).every((p) => p.symbols.includes(firstSymbol)), firstSymbol);

    // Failures are JSON-RPC errors, not tool results.
    const cases = [
      ['missing query', 'search_code_semantic', { collectionName: 'alpha' }, -32602, /query/],
      ['missing collectionName', 'search_code_fulltext', { textQuery: 'x' }, -32602, /collectionName/],
      ['mistyped top_k', 'search_code_fulltext', { textQuery: 'x', collectionName: 'alpha', top_k: 'ten' }, -32602, /top_k/],
      ['top_k 0', 'search_code_semantic', { query: 'x', collectionName: 'alpha', top_k: 0 }, -32602, /top_k/],
      ['top_k 1001', 'search_code_by_payload', { collectionName: 'alpha', payload: { language: 'go' }, top_k: 1001 }, -32602, /top_k/],
      ['unknown payload key', 'search_code_by_payload', { collectionName: 'alpha', payload: { path: '/x' } }, -32602, /path.*allowed: filePath/],
      ['payload not an object', 'search_code_fulltext', { textQuery: 'x', collectionName: 'alpha', payload: 'language=go' }, -32602, /payload/],
      ['missing payload', 'search_code_by_payload', { collectionName: 'alpha' }, -32602, /payload/],
      ['bad collection name', 'search_code_semantic', { query: 'x', collectionName: '../alpha' }, -32602, /collection name/],
      ['unknown collection', 'search_code_semantic', { query: 'x', collectionName: 'gamma' }, -32001, /gamma.*alpha, beta/],
    ];
    for (const [what, name, args, code, re] of cases) {
      const got = await rpcError(client, name, args);
      check(`${what}: JSON-RPC ${code}`, got.code === code && re.test(got.message), JSON.stringify(got).slice(0, 300));
    }
  } catch (e) {
    check('collections session', false, e.stack);
  }
  await client.close();

  const only = await connect(stdioTransport(['--toolsets', 'collections', '--collection', 'alpha']));
  const hidden = await rpcError(only, 'search_code_semantic', { query: 'x', collectionName: 'beta' });
  check('--collection alpha hides beta (-32001, known: alpha)', hidden.code === -32001 && /known collections: alpha\)/.test(hidden.message), JSON.stringify(hidden));
  await only.close();

  section = 'collections (REST)';
  const { proc, base, stderr } = await spawnHTTP(['--root', ROOT, '--allow-root', env.LORE_EMPTY]);
  try {
    check('lore serve --http prints its URL', !!base, stderr());
    const api = base + '/api/v1';
    const json = async (res) => ({ status: res.status, type: res.headers.get('content-type'), body: await res.json() });
    const post = (path, body) => fetch(api + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(json);

    const list = await fetch(api + '/collections').then(json);
    check('GET /collections lists alpha and beta', list.status === 200 && JSON.stringify(list.body.collections.map((c) => c.name)) === '["alpha","beta"]', JSON.stringify(list.body).slice(0, 300));
    const one = await fetch(api + '/collections/alpha').then(json);
    check('GET /collections/alpha: files, chunks, languages, indexed_at', one.status === 200 && one.body.files > 0 && one.body.chunks > 0 &&
      one.body.languages.length > 0 && !!one.body.indexed_at && 'git_commit' in one.body, JSON.stringify(one.body).slice(0, 300));
    for (const [kind, body] of [['semantic', { query: 'log in a user', top_k: 2 }], ['fulltext', { textQuery: 'logi', payload: { filePath: '/**' } }], ['payload', { payload: { filePath: '/**/*.go' } }]]) {
      const r = await post(`/collections/alpha/search/${kind}`, body);
      check(`POST search/${kind} answers {results, took_ms}`, r.status === 200 && r.body.results.length > 0 && typeof r.body.took_ms === 'number' &&
        r.body.results.every((x) => x.payload.collectionName === 'alpha'), JSON.stringify(r.body).slice(0, 300));
    }
    const errors = [
      ['unknown collection', () => post('/collections/gamma/search/semantic', { query: 'x' }), 404, 'COLLECTION_NOT_FOUND'],
      ['bad top_k', () => post('/collections/alpha/search/semantic', { query: 'x', top_k: 0 }), 400, null],
      ['unknown payload key', () => post('/collections/alpha/search/payload', { payload: { nope: 1 } }), 400, null],
      ['not JSON', () => fetch(api + '/collections/alpha/search/fulltext', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' }).then(json), 400, null],
      ['wrong method', () => fetch(api + '/collections/alpha', { method: 'PUT' }).then(json), 405, null],
      ['path outside the allowed roots', () => post('/collections', { name: 'out', path: env.LORE_OUTSIDE }), 403, 'PATH_OUTSIDE_ROOT'],
      ['unknown job', () => fetch(api + '/jobs/nope').then(json), 404, 'JOB_NOT_FOUND'],
    ];
    for (const [what, call, status, code] of errors) {
      const r = await call();
      check(`${what}: ${status} problem+json`, r.status === status && /application\/problem\+json/.test(r.type) && r.body.status === status &&
        !!r.body.title && !!r.body.detail && (!code || r.body.code === code), JSON.stringify(r).slice(0, 300));
    }
    const created = await post('/collections', { name: 'gamma', path: env.LORE_EMPTY });
    check('POST /collections starts a job (202)', created.status === 202 && !!created.body.id, JSON.stringify(created.body));
    let job = created.body;
    for (const deadline = performance.now() + 120000; job.state === 'running' && performance.now() < deadline;) {
      await sleep(25);
      job = (await fetch(api + '/jobs/' + created.body.id).then(json)).body;
    }
    check('the job succeeds, and GET /jobs/{id} reports it', job.state === 'succeeded', JSON.stringify(job).slice(0, 300));
    const cancelled = await fetch(api + '/jobs/' + created.body.id, { method: 'DELETE' }).then(json);
    check('DELETE /jobs/{id} of a finished job changes nothing', cancelled.status === 200 && cancelled.body.state === 'succeeded', JSON.stringify(cancelled.body));
    const health = await fetch(base + '/healthz');
    const ready = await fetch(base + '/readyz');
    check('/healthz and /readyz', health.status === 200 && ready.status === 200, `${health.status} ${ready.status}`);
    const spec = await fetch(api + '/openapi.json').then(json);
    check('GET /openapi.json is OpenAPI 3.1', spec.status === 200 && /^3\.1/.test(spec.body.openapi) && !!spec.body.paths['/api/v1/collections/{name}/search/semantic'], spec.body.openapi);

    section = 'collections (MCP over HTTP)';
    const client = new Client({ name: 'lore-e2e-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(base + '/mcp')));
    const res = await client.callTool({ name: 'search_code_by_payload', arguments: { collectionName: 'gamma', payload: { language: 'go' } } });
    check('the collection indexed through REST is searchable over MCP', !res.isError && Array.isArray(res.structuredContent.results), text(res).slice(0, 200));
    const unknown = await rpcError(client, 'search_code_fulltext', { textQuery: 'x', collectionName: 'delta' });
    check('unknown collection over HTTP: JSON-RPC -32001', unknown.code === -32001, JSON.stringify(unknown));
    await client.close();
  } catch (e) {
    check('REST session', false, e.stack);
  } finally {
    proc.kill('SIGTERM');
    const [code] = await Promise.race([once(proc, 'exit'), sleep(60000).then(() => ['timeout'])]);
    check('SIGTERM: exit 0', code === 0, `exit ${code}`);
  }
}

async function readOnly() {
  section = 'read-only';
  const t = stdioTransport(['--read-only']);
  const client = await connect(t);
  const { tools } = await client.listTools();
  check('no index_codebase in --read-only', !tools.some((x) => x.name === 'index_codebase') && tools.some((x) => x.name === 'search_code'));
  await client.close();
  const proc = spawn(env.LORE_BIN, ['serve', '--read-only', '--root', env.LORE_EMPTY], { env: { ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const [code] = await once(proc, 'exit');
  check('--read-only without an index exits 3 (no index) telling to run lore index', code === 3 && /lore index/.test(stderr), `exit ${code}: ${stderr}`);
}

const started = performance.now();
try {
  await versions();
  await stdio();
  await packagesAndSpecs();
  await http();
  await collections();
  await readOnly();
} catch (e) {
  check('run', false, e.stack);
}
const failed = results.filter((r) => !r.ok);
console.log(`\n${results.length - failed.length}/${results.length} checks passed in ${((performance.now() - started) / 1000).toFixed(1)} s` +
  ` (@modelcontextprotocol/sdk client, node ${process.version})`);
for (const f of failed) console.log(`FAILED: ${f.name}`);
process.exit(failed.length ? 1 : 0);
