// Every string of every request body is well-formed Unicode, as I-JSON requires (API.md).
import * as z from 'zod/mini';

/** The check of a body's string `field`: an unpaired surrogate is a 400 naming it. */
export const wellFormed = (field: string) =>
  z.refine<string>(
    (value) => value.isWellFormed(),
    `${field} must be well-formed Unicode (no unpaired surrogates)`,
  );
