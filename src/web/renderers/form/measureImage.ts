import { t } from '../../app/i18n/messages';
import type { FileLike, ImageSize } from '../../../core/validation/index.js';

/** The pixel size of an image file, read by the browser (the `dimensions` rule). */
export async function measureImage(file: FileLike): Promise<ImageSize> {
  if (typeof createImageBitmap !== 'function' || !(file instanceof Blob)) throw new Error(t('renderers.browserCannotMeasureImages'));
  const bitmap = await createImageBitmap(file);
  try {
    return { width: bitmap.width, height: bitmap.height };
  } finally {
    bitmap.close();
  }
}
