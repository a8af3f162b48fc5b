import { RENDER_PROCESS_READY, type RenderJob, type RenderReply, replyOfError } from './render-messages';
import { renderPixels } from './renderer';

/** The render process: renders the jobs its parent sends, one at a time, until the parent goes. */
process.on('message', (job: RenderJob) => {
  renderPixels(Buffer.from(job.input.buffer, job.input.byteOffset, job.input.byteLength), job.format, job.request)
    .then((output): RenderReply => ({ output }), replyOfError)
    .then((reply) => process.send!(reply));
});
process.on('disconnect', () => process.exit(0));
process.send!(RENDER_PROCESS_READY);
