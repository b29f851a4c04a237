// Measures the built pages (a release build in dist/) in headless Chromium:
//
//   node tests/e2e/perf.mjs [dist-dir]
//
// 1. Input to finished redraw, per built-in scenario, once the page has
//    settled (its analysis worker loaded and answered): inside the page, set
//    a retention slider (that of the scenario's most common kind of fact,
//    swept between 0.30 and 0.89) and dispatch its `input` event. Leptos runs
//    its effects (engine, memos, DOM, canvas redraws) as microtasks queued by
//    the event; the script spins microtasks until the canvases' `data-draws`
//    counters show the redraw done and stay still (every changed row
//    redrawn), so no browser rendering step can fall in between. That is the
//    figure reported against the target. The time to the next task (a
//    MessageChannel message, never clamped like setTimeout) is reported
//    beside it: it also counts the browser's own style, layout and paint
//    whenever a frame falls in between. 300 samples per scenario after 30
//    warm-up ones; p50, p95 and max.
// 1a. A day-long session (20,000 turns, 300 facts, 200 actions, generated
//    by day.mjs) chosen in the simulator's Import: from choosing the file to
//    its headline on screen and the fact rows on screen drawn (median of 5
//    loads); then input to redraw as in 1.
// 1b. The analysis worker, per built-in scenario: from posting the scenario
//    to its reply (what would flip every action, and round by round).
// 1c. A 10 MB session log on "Your own session": from choosing the file to
//    the guesses on screen, whether the page said it was reading, and the
//    longest gap between animation frames meanwhile (the page's
//    responsiveness while the import worker reads).
// 2. First meaningful paint: a fresh browser profile opens the page; a
//    MutationObserver installed before any page script records when the
//    headline sentence first has text. Median of 7 cold loads, with the
//    browser's own first-contentful-paint beside it.
// 3. The release .wasm of each page and worker, raw and gzipped (level 9).

import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { serve } from './serve.mjs';
import { freshContext } from './browser.mjs';
import { dayLong } from './day.mjs';

const here = new URL('.', import.meta.url).pathname;
const dist = process.argv[2] ?? `${here}../../dist`;
const server = await serve(dist);
const scenarios = ['payments-incident', 'staging-migration', 'dependency-pin', 'planning-scratchpad', 'coding-day'];

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (x) => `${x.toFixed(2)} ms`;

const results = { input_to_redraw: {}, input_to_next_task: {}, day_load: {}, analysis: {}, import: {}, first_meaningful_paint: {}, wasm: {} };
// DRIFT_PERF=redraw,day measures only those sections (all by default):
// redraw, day, analysis, import, paint, size.
const only = process.env.DRIFT_PERF?.split(',');
const wanted = (section) => !only || only.includes(section);

// Waits until the page has settled: the headline up, every fact row on
// screen drawn (rows further down are drawn as they come into view), and the
// analysis worker's answer for these settings in.
async function settled(page) {
  await page.waitForSelector('.summary:not(:empty)');
  await page.waitForFunction(() => [...document.querySelectorAll('.row[data-fact] canvas')]
    .filter((c) => c.getBoundingClientRect().top < innerHeight)
    .every((c) => Number(c.dataset.draws) > 0));
  // Steady state: the analysis worker has loaded and answered once (while
  // a slider moves it is not asked, so it does not compete for the cores).
  await page.waitForFunction(() => document.querySelector('td.tips') !== null && !document.body.hasAttribute('data-analysing'), null, { timeout: 120000 });
}

// Drags the retention of the most common kind among the fact rows drawn
// (for a built-in, every row): 330 samples, the first 30 warm-up.
async function sweep(page) {
  const { redraw, task } = await page.evaluate(async () => {
    // Drag the retention of the most common kind of fact drawn.
    const kinds = [...document.querySelectorAll('.row[data-fact]')]
      .filter((r) => Number(r.querySelector('canvas').dataset.draws) > 0)
      .map((r) => r.querySelector('.kind').textContent.replace(/[ -]/g, '_'));
    const kind = kinds.sort((a, b) => kinds.filter((k) => k === b).length - kinds.filter((k) => k === a).length)[0];
    const slider = document.querySelector(`#retention-${kind}`);
    // Only rows drawn can be redrawn (and reading every row's counter on
    // every spin would cost more than the redraw for hundreds of rows).
    const canvases = [...document.querySelectorAll('.row[data-fact] canvas')].filter((c) => Number(c.dataset.draws) > 0);
    const draws = () => canvases.reduce((n, c) => n + (Number(c.dataset.draws) || 0), 0);
    // A message-channel task, not setTimeout: nested timers are clamped to 4 ms.
    const channel = new MessageChannel();
    const nextTask = () => new Promise((r) => { channel.port1.onmessage = () => r(); channel.port2.postMessage(0); });
    const redraw = [];
    const task = [];
    for (let i = 0; i < 330; i++) {
      const before = draws();
      slider.value = String(0.3 + ((i * 7) % 60) / 100);
      const t0 = performance.now();
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      // Effects run as microtasks: spin microtasks until the canvases have
      // been redrawn (no rendering step can run in between).
      let spins = 0;
      while (draws() === before && spins < 10000) {
        await Promise.resolve();
        spins += 1;
      }
      // Then until no further canvas redraws for a while: every changed row is done.
      for (let quiet = 0, seen = draws(); quiet < 200; quiet += 1) {
        await Promise.resolve();
        if (draws() !== seen) {
          seen = draws();
          quiet = 0;
        }
      }
      const t1 = performance.now();
      await nextTask();
      const t2 = performance.now();
      if (draws() === before) throw new Error(`sample ${i} redrew no canvas (${kind})`);
      if (i >= 30) {
        redraw.push(t1 - t0);
        task.push(t2 - t0);
      }
    }
    return { redraw, task };
  });
  const stats = (xs) => {
    xs.sort((a, b) => a - b);
    return { samples: xs.length, p50_ms: quantile(xs, 0.5), p95_ms: quantile(xs, 0.95), max_ms: xs[xs.length - 1] };
  };
  return { redraw: stats(redraw), task: stats(task) };
}

// 1. Input to redraw.
if (wanted('redraw')) {
  const { context, close } = await freshContext();
  for (const id of scenarios) {
    const page = await context.newPage();
    await page.goto(`${server.origin}/?v=1&s=${id}`);
    await settled(page);
    const { redraw, task } = await sweep(page);
    results.input_to_redraw[id] = redraw;
    results.input_to_next_task[id] = task;
    await page.close();
  }
  await close();
}

// 1a. A day-long session (tests/e2e/day.mjs), chosen in the simulator's
//     Import as a person would: from the file input's change to its
//     headline on screen and every fact row on screen drawn for it. Five
//     loads, each after going back to a built-in (the same file twice is no
//     change). Then input to redraw, as for the built-ins.
if (wanted('day')) {
  const file = JSON.stringify(dayLong());
  const { context, close } = await freshContext();
  const page = await context.newPage();
  await page.goto(`${server.origin}/?v=1&s=payments-incident`);
  await settled(page);
  await page.evaluate((text) => {
    window.__file = new File([text], 'working-day.json', { type: 'application/json' });
  }, file);
  const loads = [];
  for (let n = 0; n < 5; n++) {
    await page.selectOption('#scenario', 'payments-incident');
    await page.waitForFunction(() => /of 8 actions/.test(document.querySelector('.summary')?.textContent ?? ''));
    await page.waitForTimeout(500);
    loads.push(await page.evaluate(async () => {
      const channel = new MessageChannel();
      const nextTask = () => new Promise((r) => { channel.port1.onmessage = () => r(); channel.port2.postMessage(0); });
      const before = new Map([...document.querySelectorAll('.row[data-fact] canvas')].map((c) => [c, Number(c.dataset.draws)]));
      const input = document.querySelector('#import-file');
      // A fresh list each time: the page clears the input after reading it.
      const files = new DataTransfer();
      files.items.add(window.__file);
      const t0 = performance.now();
      input.files = files.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      const shown = () => {
        if (!/of 200 actions/.test(document.querySelector('.summary')?.textContent ?? '')) return false;
        const rows = [...document.querySelectorAll('.row[data-fact] canvas')].filter((c) => c.getBoundingClientRect().top < innerHeight);
        return rows.length > 0 && rows.every((c) => Number(c.dataset.draws) > (before.get(c) ?? 0));
      };
      while (!shown()) {
        if (performance.now() - t0 > 60000) throw new Error('the day-long session did not load in a minute');
        await nextTask();
      }
      return performance.now() - t0;
    }));
  }
  loads.sort((a, b) => a - b);
  results.day_load = { bytes: file.length, loads: loads.length, median_ms: quantile(loads, 0.5), max_ms: loads[loads.length - 1] };
  await settled(page);
  const { redraw, task } = await sweep(page);
  results.input_to_redraw['working-day'] = redraw;
  results.input_to_next_task['working-day'] = task;
  await close();
}

// 1b. The analysis worker: a worker like the page's, started in the page,
//     is sent each built-in scenario file as the page sends it; the time from
//     posting to the reply (tipping points of every action and round by
//     round) is one sample. 30 samples per scenario after 5 warm-up ones.
if (wanted('analysis')) {
  const { context, close } = await freshContext();
  const page = await context.newPage();
  await page.goto(`${server.origin}/`);
  await page.waitForSelector('.summary:not(:empty)');
  for (const id of scenarios) {
    const file = await readFile(new URL(`../../crates/drift-core/scenarios/${id}.json`, import.meta.url), 'utf8');
    const samples = await page.evaluate(async (file) => {
      const worker = new Worker('drift-analysis_loader.js');
      await new Promise((ready) => { worker.onmessage = (e) => e.data === 'ready' && ready(); });
      const ask = (n) => new Promise((resolve) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.postMessage(`${n}\nanalysis\n${file}`);
      });
      const out = [];
      for (let n = 0; n < 35; n++) {
        const t0 = performance.now();
        const reply = await ask(n);
        if (!reply.includes('"tips"')) throw new Error(reply.slice(0, 200));
        if (n >= 5) out.push(performance.now() - t0);
      }
      worker.terminate();
      return out;
    }, file);
    samples.sort((a, b) => a - b);
    results.analysis[id] = { samples: samples.length, p50_ms: quantile(samples, 0.5), p95_ms: quantile(samples, 0.95) };
  }
  await close();
}

// 1c. Importing a 10 MB session log on "Your own session": from choosing the
//     file to the guesses on screen.
if (wanted('import')) {
  const log = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Never restart db-prod-01 without an approver on the call.' }] }];
  let i = 0;
  while (JSON.stringify(log).length < 10_000_000) {
    log.push({ type: 'function_call', call_id: `c${i}`, name: 'shell', arguments: JSON.stringify({ command: `cat logs/part-${i}.log` }) });
    log.push({ type: 'function_call_output', call_id: `c${i}`, output: `line ${i}: GET /api/orders/${i} served in 12 ms by payments-api-7d9f8\n`.repeat(60) });
    if (i % 50 === 0) log.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `Do not touch tenant t-${i} until Friday.` }] });
    i += 1;
  }
  log.push({ type: 'function_call', call_id: 'last', name: 'shell', arguments: JSON.stringify({ command: 'kubectl rollout restart statefulset/db-prod-01' }) });
  const buffer = Buffer.from(JSON.stringify(log));
  const { context, close } = await freshContext();
  const page = await context.newPage();
  await page.goto(`${server.origin}/session/`);
  await page.waitForSelector('#import-file');
  // Frames keep coming while the worker reads: the longest gap between two
  // animation frames, from choosing the file to the guesses on screen.
  await page.evaluate(() => {
    window.__gaps = { last: performance.now(), max: 0, progress: false, run: true };
    const tick = (t) => {
      const g = window.__gaps;
      g.max = Math.max(g.max, t - g.last);
      g.last = t;
      g.progress ||= document.querySelector('.progress:not([hidden])') !== null;
      if (g.run) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  // The file is made in the page first and then chosen, as a person's pick
  // would be (Playwright's own file upload decodes the bytes on the page's
  // thread, which is not the page's doing).
  await page.evaluate((text) => {
    const files = new DataTransfer();
    files.items.add(new File([text], 'big.json', { type: 'application/json' }));
    window.__files = files.files;
  }, buffer.toString());
  await new Promise((settle) => setTimeout(settle, 500));
  const t0 = await page.evaluate(() => {
    window.__gaps.max = 0;
    const input = document.querySelector('#import-file');
    input.files = window.__files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return performance.now();
  });
  await page.waitForSelector('table.guesses.facts tr[data-fact]', { timeout: 120000 });
  const gaps = await page.evaluate(() => { window.__gaps.run = false; return { ...window.__gaps, now: performance.now() }; });
  results.import = { bytes: buffer.length, ms: gaps.now - t0, progress_shown: gaps.progress, longest_frame_gap_ms: gaps.max };
  await close();
}

// 2. First meaningful paint, cold.
if (wanted('paint')) {
  const fmp = [];
  const fcp = [];
  for (let i = 0; i < 7; i++) {
    const { context, close } = await freshContext();
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const summary = document.querySelector('.summary');
        if (summary && summary.textContent) {
          window.__meaningful = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => window.__meaningful !== undefined);
    const [m, f] = await page.evaluate(() => [
      window.__meaningful,
      performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    ]);
    fmp.push(m);
    fcp.push(f);
    await close();
  }
  fmp.sort((a, b) => a - b);
  fcp.sort((a, b) => a - b);
  results.first_meaningful_paint = { loads: fmp.length, median_ms: quantile(fmp, 0.5), max_ms: fmp[fmp.length - 1], first_contentful_paint_median_ms: quantile(fcp, 0.5) };
}

// 3. Size.
if (wanted('size')) {
  results.wasm = [];
  for (const dir of [dist, `${dist}/session`]) {
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.wasm')).sort()) {
      const bytes = await readFile(`${dir}/${file}`);
      // `gzip -9`, as `cargo xtask test` reports it, and Node's zlib at level 9
      // (a different deflate implementation: about 2% larger here).
      const gzip = spawnSync('gzip', ['-9', '-c'], { input: bytes, maxBuffer: 1 << 26 }).stdout.length;
      results.wasm.push({ file: `${dir === dist ? '' : 'session/'}${file}`, raw_bytes: bytes.length, gzip_bytes: gzip, zlib_bytes: gzipSync(bytes, { level: 9 }).length });
    }
  }
}

await server.close();
for (const [title, table] of [
  ['input to finished canvas redraw (300 samples each)', results.input_to_redraw],
  ['input to the next task, browser rendering included when it falls in between', results.input_to_next_task],
]) {
  console.log(title);
  for (const [id, r] of Object.entries(table)) {
    console.log(`  ${id.padEnd(22)} p50 ${ms(r.p50_ms)}  p95 ${ms(r.p95_ms)}  max ${ms(r.max_ms)}`);
  }
}
console.log('analysis worker: tipping points of every action and round by round, post to reply (30 samples each)');
for (const [id, r] of Object.entries(results.analysis)) {
  console.log(`  ${id.padEnd(22)} p50 ${ms(r.p50_ms)}  p95 ${ms(r.p95_ms)}`);
}
if (results.day_load.loads) {
  const r = results.day_load;
  console.log(`day-long session (${(r.bytes / 1e6).toFixed(2)} MB) loaded through Import: median ${ms(r.median_ms)}, max ${ms(r.max_ms)} (${r.loads} loads)`);
}
if (results.import.bytes) {
  const r = results.import;
  console.log(`import of a ${(r.bytes / 1e6).toFixed(1)} MB session log: ${ms(r.ms)} to the guesses on screen; progress shown: ${r.progress_shown}; longest gap between frames meanwhile ${ms(r.longest_frame_gap_ms)}`);
}
const f = results.first_meaningful_paint;
if (f.loads) {
  console.log(`first meaningful paint (${f.loads} cold loads): median ${ms(f.median_ms)}, max ${ms(f.max_ms)}; first contentful paint median ${ms(f.first_contentful_paint_median_ms)}`);
}
for (const w of results.wasm.length ? results.wasm : []) {
  console.log(`wasm ${w.file}: ${w.raw_bytes} bytes; gzip -9 ${w.gzip_bytes} (${(w.gzip_bytes / 1024).toFixed(1)} KiB); zlib level 9 ${w.zlib_bytes}`);
}
console.log(JSON.stringify(results));
