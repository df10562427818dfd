import * as l10n from '@vscode/l10n';
import { IMAGE_MEDIA_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, type ImageMediaType } from '../src/shared/image-attachment';
import { ImageUploadSchema, type ImageUpload } from '../src/shared/protocol';
import { h } from './dom';

/** The chip's preview: at most this many pixels on its longer side. */
const THUMBNAIL_PX = 96;

/**
 * Images pasted or dropped into the composer, as removable thumbnail chips above the buttons.
 * Each is checked here as the extension will check it (PNG, JPEG, GIF or WebP, ≤ 5 MB, bytes that
 * really are an image) and a problem is said in words next to the chips. They go with the next
 * message and are not kept when the view reloads (only the typed text is).
 */
export class Attachments {
  private uploads: ImageUpload[] = [];
  private readonly tray: HTMLElement;
  private readonly problem: HTMLElement;

  constructor(
    form: HTMLElement,
    private readonly onChange: () => void,
  ) {
    this.tray = form.querySelector<HTMLElement>('#attachments')!;
    this.problem = form.querySelector<HTMLElement>('#attach-problem')!;
    form.addEventListener('paste', (e) => {
      const files = imageFiles((e as ClipboardEvent).clipboardData);
      if (files.length === 0) return;
      e.preventDefault(); // the file's name is not pasted as text
      void this.add(files);
    });
    // A file drag over the composer stays here. VS Code's webview host listens on the window: a
    // dragenter nobody took, or any dragover that reaches it, hands the drag to the workbench
    // (the view stops taking pointer events and the drop opens the file in an editor instead).
    const acceptFiles = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) {
        e.preventDefault();
        e.stopPropagation();
        e.dataTransfer.dropEffect = 'copy';
      }
    };
    form.addEventListener('dragenter', acceptFiles);
    form.addEventListener('dragover', acceptFiles);
    form.addEventListener('drop', (e) => {
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      e.preventDefault();
      void this.add(files);
    });
  }

  get count(): number {
    return this.uploads.length;
  }

  /** The images for the message being sent; the tray empties. */
  take(): ImageUpload[] {
    const taken = this.uploads;
    this.uploads = [];
    this.say('');
    this.render();
    return taken;
  }

  async add(files: readonly File[]): Promise<void> {
    const problems: string[] = [];
    for (const file of files) {
      if (this.uploads.length >= MAX_IMAGES_PER_MESSAGE) {
        problems.push(l10n.t('A message can carry at most {0} images.', MAX_IMAGES_PER_MESSAGE));
        break;
      }
      try {
        this.uploads.push(await readImage(file));
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
    this.say(problems.join(' '));
    this.render();
  }

  private remove(index: number): void {
    const name = this.uploads[index]?.image.name ?? 'image';
    this.uploads.splice(index, 1);
    this.render();
    this.say(l10n.t('Removed {0}.', name));
    // Focus moves to a neighbour's remove button, or back to the input.
    const buttons = this.tray.querySelectorAll<HTMLButtonElement>('button');
    (buttons[Math.min(index, buttons.length - 1)] ?? document.querySelector<HTMLElement>('#input'))?.focus();
  }

  private render(): void {
    this.tray.hidden = this.uploads.length === 0;
    this.tray.replaceChildren(
      ...this.uploads.map((upload, i) => {
        const name = upload.image.name ?? `image ${i + 1}`;
        const remove = h('button', { class: 'chip-remove', text: '×', attrs: { type: 'button', 'aria-label': l10n.t('Remove image {0}', name), title: l10n.t('Remove {0}', name) } });
        remove.addEventListener('click', () => this.remove(i));
        return h(
          'div',
          { class: 'image-chip', attrs: { role: 'listitem' } },
          h('img', { attrs: { src: upload.thumbnail, alt: name } }),
          h('span', { class: 'image-name', text: name }),
          remove,
        );
      }),
    );
    this.onChange();
  }

  /** A line next to the chips (a problem, or what just happened), read out by screen readers. */
  say(text: string): void {
    this.problem.textContent = text;
    this.problem.hidden = !text;
  }
}

function imageFiles(data: DataTransfer | null): File[] {
  if (!data) return [];
  return [...data.items].filter((item) => item.kind === 'file' && item.type.startsWith('image/')).flatMap((item) => item.getAsFile() ?? []);
}

/** A file as an upload: type and size checked, base64 read, thumbnail drawn; throws what is wrong in words. */
export async function readImage(file: File): Promise<ImageUpload> {
  const name = file.name || 'pasted image';
  if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(file.type)) {
    throw new Error(`${name} was not attached: only PNG, JPEG, GIF and WebP images can be.`);
  }
  if (file.size > MAX_IMAGE_BYTES) {
    throw new Error(`${name} was not attached: it is ${(file.size / (1024 * 1024)).toFixed(1)} MB, and images may have at most ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`);
  }
  const data = toBase64(new Uint8Array(await file.arrayBuffer()));
  const thumbnail = await drawThumbnail(file).catch(() => undefined);
  const parsed = ImageUploadSchema.safeParse({ image: { mediaType: file.type as ImageMediaType, data, name: name.slice(0, 200) }, thumbnail });
  if (!parsed.success || !thumbnail) throw new Error(`${name} was not attached: it could not be read as an image.`);
  return parsed.data;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

async function drawThumbnail(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, THUMBNAIL_PX / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL('image/png');
}
