import sharp from 'sharp';
import { RenderProcesses } from '../../infra/images/render-processes';
import { NotAnImageError, RenderTimeoutError, RenditionTooLargeError } from '../../infra/images/renderer';
import { HEAVY_SVG, isAlive } from '../support/heavy-svg';
import { eventually } from '../support/waiting';

const TIMEOUT_MS = 1000;

describe('RenderProcesses', () => {
  const processes = new RenderProcesses(TIMEOUT_MS);
  let photo: Buffer;

  beforeAll(async () => {
    photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 200 } } }).jpeg().toBuffer();
  });
  afterAll(() => processes.close());

  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const outcome = await run().catch((error: unknown) => error);
    return { outcome, ms: performance.now() - started };
  };

  it('renders in a child process, and carries its refusals back as the renderer throws them', async () => {
    const rendered = await processes.render(photo, 'png', { width: 64 });
    expect((await sharp(rendered).metadata()).width).toBe(64);
    await expect(processes.render(Buffer.from('not an image'), 'png', { width: 64 })).rejects.toThrow(NotAnImageError);
    await expect(processes.render(photo, 'png', { width: 8000, enlarge: true })).rejects.toEqual(expect.any(RenditionTooLargeError));
    expect(processes.pids()).toHaveLength(1);
  }, 60_000);

  it('stops a render past its timeout: the process is killed within the timeout and the next render succeeds', async () => {
    const fresh = new RenderProcesses(TIMEOUT_MS);
    try {
      // The baseline: an ordinary render in a process started for it, measured now on this machine.
      const ordinary = await timed(() => fresh.render(photo, 'png', { width: 64 }));
      expect(Buffer.isBuffer(ordinary.outcome)).toBe(true);
      fresh.close();
      const heavyProcesses = new RenderProcesses(TIMEOUT_MS);
      // A started process: the timeout bounds the render, not the start (which has its own bound).
      await heavyProcesses.render(photo, 'png', { width: 64 });
      const rss: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++) {
        const pending = heavyProcesses.render(HEAVY_SVG, 'png', {});
        const [pid] = heavyProcesses.pids();
        const heavy = await timed(() => pending);
        expect(heavy.outcome).toEqual(expect.any(RenderTimeoutError));
        expect((heavy.outcome as Error).message).toBe(`rendering took longer than ${TIMEOUT_MS} ms (IMAGE_RENDER_TIMEOUT_MS) and was stopped`);
        expect(heavy.ms).toBeLessThan(TIMEOUT_MS + ordinary.ms);
        await eventually(() => !isAlive(pid!));
        const next = await heavyProcesses.render(photo, 'png', { width: 64 });
        expect((await sharp(next).metadata()).width).toBe(64);
        expect(heavyProcesses.pids()).toHaveLength(1);
        rss.push(process.memoryUsage().rss);
      }
      // Each killed render took its memory with it: this process does not grow by the renders stopped.
      expect(rss.at(-1)! - rss[0]!).toBeLessThan(64 * 1024 * 1024);
      heavyProcesses.close();
    } finally {
      fresh.close();
    }
  }, 120_000);
});
