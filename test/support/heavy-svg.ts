/**
 * A 3000×3000 SVG of about 300 bytes (within every pixel and byte limit) that librsvg rasterises
 * in one call taking minutes: a dilation of radius 300 over turbulence costs every pixel a
 * 600-pixel-wide window. libvips's own timeout never interrupts it.
 */
export const HEAVY_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="3000"><filter id="f" x="0" y="0" width="1" height="1">' +
    '<feTurbulence baseFrequency="0.05" numOctaves="10"/><feMorphology operator="dilate" radius="300"/></filter>' +
    '<rect width="3000" height="3000" filter="url(#f)"/></svg>',
);

/** Whether a process with this id is still running. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
