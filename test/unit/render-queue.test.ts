import { RenderQueue, RenderQueueFullError } from '../../infra/images/render-queue';

/** A render that runs until `finish()` is called; `started` records the order renders began in. */
function gate(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { render: async () => (started.push(name), done), finish: () => finish() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RenderQueue', () => {
  it('runs at most `concurrency` renders at once, starting the next as one finishes', async () => {
    const queue = new RenderQueue({ concurrency: 2, waitingPerWorkspace: 10, waiting: 10 });
    const started: string[] = [];
    const renders = ['a', 'b', 'c'].map((name) => gate(started, name));
    const runs = renders.map((render) => queue.run('ws', render.render));
    await settle();
    expect(started).toEqual(['a', 'b']);
    renders[0]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    renders.slice(1).forEach((render) => render.finish());
    await Promise.all(runs);
  });

  it('starts waiting renders one workspace after another, not first come first served', async () => {
    const queue = new RenderQueue({ concurrency: 1, waitingPerWorkspace: 10, waiting: 10 });
    const started: string[] = [];
    const flood = ['a0', 'a1', 'a2', 'a3'].map((name) => gate(started, name));
    const runs = flood.map((render) => queue.run('attacker', render.render));
    const other = gate(started, 'b0');
    runs.push(queue.run('bystander', other.render));
    for (const render of [...flood.slice(0, 2), other, ...flood.slice(2)]) {
      await settle();
      render.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(['a0', 'a1', 'b0', 'a2', 'a3']);
  });

  it('refuses a render past the workspace\'s waiting limit or the total one, while other workspaces still wait their turn', async () => {
    const queue = new RenderQueue({ concurrency: 1, waitingPerWorkspace: 2, waiting: 3 });
    const started: string[] = [];
    const renders = Array.from({ length: 5 }, (_, index) => gate(started, `r${index}`));
    const runs = renders.slice(0, 3).map((render) => queue.run('attacker', render.render));
    await expect(queue.run('attacker', renders[3]!.render)).rejects.toThrow(RenderQueueFullError);
    runs.push(queue.run('bystander', renders[4]!.render));
    await expect(queue.run('third', async () => 'never')).rejects.toThrow(RenderQueueFullError);
    for (const render of renders) render.finish();
    await Promise.all(runs);
    expect(started).toEqual(['r0', 'r1', 'r4', 'r2']);
  });

  it('frees the slot of a render that fails', async () => {
    const queue = new RenderQueue({ concurrency: 1, waitingPerWorkspace: 1, waiting: 1 });
    await expect(queue.run('ws', async () => Promise.reject(new Error('broken image')))).rejects.toThrow('broken image');
    await expect(queue.run('ws', async () => 'rendered')).resolves.toBe('rendered');
  });
});
