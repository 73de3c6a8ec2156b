/**
 * The chart as a file: the standalone SVG of lib/chart-export.ts, or that SVG drawn on a canvas
 * at twice its size and saved as PNG. Names come from the chart's id.
 */
import { exportSvg, type ExportInput } from '../lib/chart-export';

function save(blob: Blob, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

export async function download(format: 'svg' | 'png', input: ExportInput): Promise<void> {
  const { svg, width, height } = exportSvg(input);
  const name = `chokepoint-${input.spec.id}.${format}`;
  if (format === 'svg') return save(new Blob([svg], { type: 'image/svg+xml' }), name);
  const img = new Image(width, height);
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(2, 2);
  ctx.drawImage(img, 0, 0, width, height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (blob) save(blob, name);
}

/** The embed code to the clipboard; selected for a manual copy where the clipboard is refused. */
export async function copy(area: HTMLTextAreaElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(area.value);
    return true;
  } catch {
    area.select();
    return document.execCommand('copy');
  }
}
