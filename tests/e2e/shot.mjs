// Screenshots of the built page: `node shot.mjs [query] [width] [out.png]`.
import { serve } from './serve.mjs';
import { freshContext } from './browser.mjs';

const [query = '', width = '1280', out = 'artifacts/page.png'] = process.argv.slice(2);
const server = await serve(new URL('../../dist', import.meta.url).pathname);
const { context, close } = await freshContext({ viewport: { width: Number(width), height: 900 } });
const page = await context.newPage();
page.on('console', (m) => console.log(`[console.${m.type()}] ${m.text()}`));
page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
await page.goto(`${server.origin}/${query}`);
await page.waitForSelector('.summary:not(:empty)', { timeout: 20000 });
await page.waitForTimeout(300);
await page.screenshot({ path: out, fullPage: true });
console.log(`wrote ${out}`);
await close();
await server.close();
